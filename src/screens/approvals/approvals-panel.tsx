import { Box, Text, useInput, type Key } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { KeyHints } from '../../components/key-hints/index.js';
import { truncate, useTheme } from '../../components/theme/index.js';
import type { CsrSummary } from '../../kube/csr.js';
import { keyHints } from '../keymap.js';
import { splitKeys } from '../split-keys.js';
import { csrBlock, firstShown } from './csr-block.js';
import type { ApprovalsDeps } from './deps.js';

export interface ApprovalsPanelProps {
  deps: ApprovalsDeps;
  context: string;
  readOnly: boolean;
  /** The keys listen (not while the help is shown). */
  active: boolean;
  /** Lines for the panel, its own key hints included. */
  height: number;
  width: number;
  onClose: () => void;
  onQuit: () => void;
}

type Decision = 'approve' | 'deny';
interface Confirm {
  decision: Decision;
  csr: CsrSummary;
}

/**
 * The pending CertificateSigningRequests of one context, live: per request its name, requester,
 * age, signer, usages, requested subject and SANs, and the warnings under it. j/k select; y
 * approves and d denies, each after a y/n question (the panel owns the keyboard while it asks);
 * both are refused in --read-only. Esc goes back to the contexts.
 */
export function ApprovalsPanel({ deps, context, readOnly, active, height, width, onClose, onQuit }: ApprovalsPanelProps) {
  const theme = useTheme();
  const [csrs, setCsrs] = useState<CsrSummary[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState(0);
  const [confirm, setConfirm] = useState<Confirm | undefined>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<{ text: string; kind: 'ok' | 'warn' | 'fail' } | undefined>(undefined);
  const first = useRef(0);

  useEffect(() => {
    setCsrs(undefined);
    setError(undefined);
    const stop = deps.watch(
      context,
      (all) => {
        setCsrs(all.filter((c) => c.condition === 'Pending'));
        setError(undefined);
      },
      (msg) => setError(msg),
    );
    return () => stop();
  }, [deps, context]);

  const pending = csrs ?? [];
  const index = Math.max(0, Math.min(selected, pending.length - 1));

  // The state as of the last key, so the second key of a chunk sees what the first did.
  const live = useRef({ index, confirm, busy, pending });
  live.current = { index, confirm, busy, pending };

  const run = (c: Confirm) => {
    setBusy(c.csr.name);
    setMessage(undefined);
    const call = c.decision === 'approve' ? deps.approve(context, c.csr.name) : deps.deny(context, c.csr.name);
    call.then(
      (line) => setMessage({ text: line, kind: /: (approved|denied)$|already/.test(line) ? 'ok' : 'fail' }),
      (err: unknown) => setMessage({ text: `${c.csr.name}: ${err instanceof Error ? err.message : String(err)}`, kind: 'fail' }),
    ).finally(() => setBusy(undefined));
  };

  const handle = (input: string, key: Key) => {
    const s = live.current;
    if (key.ctrl && input === 'c') return onQuit();
    if (s.confirm) {
      if (input === 'y' || input === 'Y') {
        live.current = { ...s, confirm: undefined };
        setConfirm(undefined);
        run(s.confirm);
      } else if (input === 'n' || input === 'N' || key.escape) {
        live.current = { ...s, confirm: undefined };
        setConfirm(undefined);
        setMessage({ text: 'Nothing was changed.', kind: 'warn' });
      }
      return;
    }
    if (key.escape) return onClose();
    if (input === 'q') return onQuit();
    const count = s.pending.length;
    const move = (to: number) => {
      const next = Math.max(0, Math.min(to, count - 1));
      live.current = { ...s, index: next };
      setSelected(next);
    };
    if (input === 'j' || key.downArrow) move(s.index + 1);
    else if (input === 'k' || key.upArrow) move(s.index - 1);
    else if (input === 'g' || key.home) move(0);
    else if (input === 'G' || key.end) move(count - 1);
    else if (input === 'y' || input === 'd') {
      const csr = s.pending[s.index];
      if (!csr) return;
      const decision: Decision = input === 'y' ? 'approve' : 'deny';
      if (readOnly) {
        setMessage({ text: `read-only: ${decision === 'approve' ? 'approving' : 'denying'} is refused (started with --read-only)`, kind: 'warn' });
        return;
      }
      if (s.busy) return;
      const c = { decision, csr };
      live.current = { ...s, confirm: c };
      setConfirm(c);
      setMessage(undefined);
    }
  };

  useInput(
    (chunk, chunkKey) => {
      for (const [input, key] of splitKeys(chunk, chunkKey)) handle(input, key);
    },
    { isActive: active },
  );

  const cut = (s: string) => truncate(theme.text(s), width, theme.ellipsis);
  const now = Date.now();
  // Lines under a request are indented by 4.
  const blocks = pending.map((c) => csrBlock(c, now, width - 4));
  // Title, status line and key hints around the requests.
  const room = Math.max(1, height - 3);
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
  const verb = confirm?.decision === 'approve' ? 'Approve' : 'Deny';
  const status = confirm
    ? { text: `${verb} ${confirm.csr.name}${confirm.csr.warnings.length ? ` despite ${confirm.csr.warnings.length} warning${confirm.csr.warnings.length === 1 ? '' : 's'}` : ''}? y/n`, kind: 'warn' as const }
    : busy
      ? { text: `${busy}: asking the cluster…`, kind: 'ok' as const }
      : (message ?? (error ? { text: `watch: ${error} (retrying)`, kind: 'fail' as const } : undefined));

  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold>{cut(title)}</Text>
      <Box flexDirection="column" height={room} overflow="hidden">
        {csrs !== undefined && pending.length === 0 ? (
          <Text dimColor>{cut(`No pending certificate signing requests in ${context}.`)}</Text>
        ) : (
          shown.map((l) => (
            <Text key={l.key} bold={l.kind === 'head' && l.selected} color={l.kind === 'warning' ? theme.color('warn') : l.selected && l.kind === 'head' ? theme.color('accent') : undefined} dimColor={l.kind === 'detail' && !l.selected}>
              {l.text}
            </Text>
          ))
        )}
      </Box>
      <Text color={status ? theme.color(status.kind) : undefined}>{status ? cut(status.text) : ' '}</Text>
      <KeyHints hints={keyHints(confirm ? 'approvalsConfirm' : 'approvals')} width={width} />
    </Box>
  );
}
