import { Box, Text } from 'ink';
import { useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import { useGate, useKeyActions, useLiveReducer } from '../../components/key-actions/index.js';
import { truncate, useTheme } from '../../components/theme/index.js';
import type { ApprovalActions } from '../../store/actions.js';
import { pendingCsrs } from '../../store/approvals.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { useAppCommands } from '../keys/app-commands.js';
import { csrBlock, firstShown } from './csr-block.js';
import { APPROVALS_KEYS, DECISION_KEYS } from './keys.js';
import { approvalsReducer, initialApprovalsNav } from './nav.js';
import { STATUS_MAX_LINES, statusLines } from './status-lines.js';

export interface ApprovalsPanelProps {
  store: FleetStore;
  actions: ApprovalActions;
  /** The keys listen (not while the help is shown). */
  active: boolean;
  /** Lines for the panel. */
  height: number;
  width: number;
}

/**
 * The pending CertificateSigningRequests of the open context, live: per request its name,
 * requester, age, signer, usages, requested subject and SANs, and the warnings under it. j/k
 * select; y approves and d denies, each after a y/n question (the panel owns the keyboard while
 * it asks); both are refused in --read-only. Esc goes back to the contexts.
 */
export function ApprovalsPanel({ store, actions, active, height, width }: ApprovalsPanelProps) {
  const theme = useTheme();
  const { readOnly } = useGate();
  const app = useAppCommands();
  const slice = useStore(store, (s) => s.approvals);
  const context = slice.context ?? '';
  const csrs = slice.csrs;
  const pending = useMemo(() => pendingCsrs(csrs), [csrs]);
  const first = useRef(0);
  const [nav, live] = useLiveReducer(approvalsReducer, initialApprovalsNav);
  const { confirm } = nav;
  const keys = useKeyActions(
    (c) => (c.nav.get().confirm ? DECISION_KEYS : APPROVALS_KEYS),
    () => ({ app, nav: live, actions, pending, busy: store.getState().approvals.busy !== undefined }),
    { active },
  );
  const index = Math.max(0, Math.min(nav.selected, pending.length - 1));
  const notice = keys.notice ? { text: keys.notice, kind: 'warn' as const } : nav.notice;
  if (slice.status !== 'on')
    return <Text>{typeof slice.status === 'object' ? `${slice.status.error} (esc: back)` : 'loading the approvals…'}</Text>;

  const cut = (s: string) => truncate(theme.text(s), width, theme.ellipsis);
  const now = Date.now();
  // Lines under a request are indented by 4.
  const blocks = pending.map((c) => csrBlock(c, now, width - 4));
  const verb = confirm?.decision === 'approve' ? 'Approve' : 'Deny';
  const status = confirm
    ? {
        text: `${verb} ${confirm.csr.name}${confirm.csr.warnings.length ? ` despite ${confirm.csr.warnings.length} warning${confirm.csr.warnings.length === 1 ? '' : 's'}` : ''}? y/n`,
        kind: 'warn' as const,
      }
    : slice.busy
      ? { text: `${slice.busy}: asking the cluster…`, kind: 'ok' as const }
      : (notice ?? slice.line ?? (slice.error ? { text: `watch: ${slice.error} (retrying)`, kind: 'fail' as const } : undefined));
  // The status wraps (a refusal names the permission it lacks); shortened from the middle if need be.
  const statusText = status ? statusLines(theme.text(status.text), width, STATUS_MAX_LINES, theme.ellipsis) : [' '];
  // The title and the status lines around the requests.
  const room = Math.max(1, height - 1 - statusText.length);
  first.current = firstShown(
    blocks.map((b) => b.length),
    index,
    room,
    first.current,
  );
  const shown: { text: string; kind: string; selected: boolean; key: string }[] = [];
  let last = first.current - 1;
  for (let i = first.current; i < blocks.length && shown.length < room; i++) {
    last = i;
    for (const [j, l] of blocks[i]!.entries()) {
      if (shown.length >= room) break;
      const lead = j === 0 ? (i === index ? `${theme.pointer} ` : '  ') : '    ';
      shown.push({ text: cut(lead + l.text), kind: l.kind, selected: i === index, key: `${i}:${j}` });
    }
  }
  const more = blocks.length - 1 - last;

  const title = `Approvals ${theme.separator} ${context} ${theme.separator} ${csrs === undefined ? 'loading…' : `${pending.length} pending`}${readOnly ? ` ${theme.separator} read-only` : ''}${more > 0 ? ` ${theme.separator} ${more} more below` : ''}`;
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold>{cut(title)}</Text>
      <Box flexDirection="column" height={room} overflow="hidden">
        {csrs !== undefined && pending.length === 0 ? (
          <Text dimColor>{cut(`No pending certificate signing requests in ${context}.`)}</Text>
        ) : (
          shown.map((l) => (
            <Text
              key={l.key}
              bold={l.kind === 'head' && l.selected}
              color={l.kind === 'warning' ? theme.color('warn') : l.selected && l.kind === 'head' ? theme.color('accent') : undefined}
              dimColor={l.kind === 'detail' && !l.selected}
            >
              {l.text}
            </Text>
          ))
        )}
      </Box>
      <Text color={status ? theme.color(status.kind) : undefined}>{statusText.join('\n')}</Text>
    </Box>
  );
}
