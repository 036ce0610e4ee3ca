import { useInput, type Key } from 'ink';
import { useRef, useState } from 'react';
import type { CsrSummary } from '../../kube/csr/index.js';
import type { ApprovalActions } from '../../store/actions.js';
import { splitKeys } from '../split-keys.js';

export type Decision = 'approve' | 'deny';

export interface Confirm {
  decision: Decision;
  csr: CsrSummary;
}

export interface Notice {
  text: string;
  kind: 'ok' | 'warn' | 'fail';
}

export interface ApprovalsKeysOptions {
  actions: ApprovalActions;
  pending: readonly CsrSummary[];
  /** A decision is under way. */
  busy: boolean;
  readOnly: boolean;
  active: boolean;
  onQuit: () => void;
}

/**
 * The panel's keys and what they leave on screen: the selected request, the y/n question, and
 * the last key's line (a refusal, "Nothing was changed."). j/k select; y approves and d denies,
 * each after y/n; Esc closes the panel.
 */
export function useApprovalsKeys({ actions, pending, busy, readOnly, active, onQuit }: ApprovalsKeysOptions) {
  const [selected, setSelected] = useState(0);
  const [confirm, setConfirm] = useState<Confirm | undefined>(undefined);
  const [notice, setNotice] = useState<Notice | undefined>(undefined);
  const index = Math.max(0, Math.min(selected, pending.length - 1));

  // The state as of the last key, so the second key of a chunk sees what the first did.
  const live = useRef({ index, confirm, busy, pending });
  live.current = { index, confirm, busy, pending };

  const answer = (input: string, key: Key, s: typeof live.current & { confirm: Confirm }) => {
    if (input === 'y' || input === 'Y') {
      live.current = { ...s, confirm: undefined };
      setConfirm(undefined);
      setNotice(undefined);
      if (s.confirm.decision === 'approve') actions.approve(s.confirm.csr.name);
      else actions.deny(s.confirm.csr.name);
    } else if (input === 'n' || input === 'N' || key.escape) {
      live.current = { ...s, confirm: undefined };
      setConfirm(undefined);
      setNotice({ text: 'Nothing was changed.', kind: 'warn' });
    }
  };

  const ask = (decision: Decision, s: typeof live.current) => {
    const csr = s.pending[s.index];
    if (!csr) return;
    if (readOnly)
      return setNotice({
        text: `read-only: ${decision === 'approve' ? 'approving' : 'denying'} is refused (started with --read-only)`,
        kind: 'warn',
      });
    if (s.busy) return;
    const c = { decision, csr };
    live.current = { ...s, confirm: c };
    setConfirm(c);
    setNotice(undefined);
  };

  const handle = (input: string, key: Key) => {
    const s = live.current;
    if (key.ctrl && input === 'c') return onQuit();
    if (s.confirm) return answer(input, key, { ...s, confirm: s.confirm });
    if (key.escape) return actions.close();
    if (input === 'q') return onQuit();
    const move = (to: number) => {
      const next = Math.max(0, Math.min(to, s.pending.length - 1));
      live.current = { ...s, index: next };
      setSelected(next);
    };
    if (input === 'j' || key.downArrow) move(s.index + 1);
    else if (input === 'k' || key.upArrow) move(s.index - 1);
    else if (input === 'g' || key.home) move(0);
    else if (input === 'G' || key.end) move(s.pending.length - 1);
    else if (input === 'y' || input === 'd') ask(input === 'y' ? 'approve' : 'deny', s);
  };

  useInput(
    (chunk, chunkKey) => {
      for (const [input, key] of splitKeys(chunk, chunkKey)) handle(input, key);
    },
    { isActive: active },
  );

  return { index, confirm, notice };
}
