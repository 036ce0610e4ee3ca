/** The wizard's keys, and the checks and the install it runs as its pages open. */
import { useInput } from 'ink';
import { type Dispatch, useEffect, useRef } from 'react';
import type { CheckItem } from '../../checklist/checklist.js';
import type { WizardAction, WizardChoices, WizardState } from './use-wizard-state.js';

export interface ChecksOutcome {
  items: CheckItem[];
  blocking: boolean;
  warnings: boolean;
}

export interface InstallOutcome {
  ok: boolean;
  steps: CheckItem[];
}

type RunChecks = (choices: WizardChoices, onProgress: (items: CheckItem[]) => void) => Promise<ChecksOutcome>;
type RunInstall = (choices: WizardChoices, onProgress: (items: CheckItem[]) => void, signal?: AbortSignal) => Promise<InstallOutcome>;

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Esc back, Ctrl-C leaves; on the checks page enter/r/n, on the plan enter (unless read-only) and
 * m. With `askReference` (the reference bundle on a cluster that is not the sandbox) the plan
 * installs on y instead of enter.
 */
export function useWizardKeys(
  state: WizardState,
  dispatch: Dispatch<WizardAction>,
  opts: { readOnly: boolean; askReference?: boolean; userKubeconfig?: string; onExit: (code: number) => void },
) {
  const { page, choices } = state;
  useInput((input, key) => {
    if (key.ctrl && input === 'c') return opts.onExit(state.progress?.ok ? 0 : 130);
    if (page === 'progress') {
      if (state.progress?.done && (input === 'q' || key.return || key.escape)) opts.onExit(state.progress.ok ? 0 : 1);
      return;
    }
    if (key.escape) return dispatch({ type: 'back' });
    if (page === 'checks' && state.checks?.done) {
      if (key.return) dispatch({ type: 'confirmChecks' });
      else if (input === 'r') dispatch({ type: 'rerunChecks' });
      else if (input === 'n' && choices.ha) dispatch({ type: 'withoutHA' });
    }
    const install = opts.askReference ? input === 'y' : key.return;
    if (page === 'plan' && install && !opts.readOnly) dispatch({ type: 'install' });
    if (page === 'plan' && input === 'm' && opts.userKubeconfig) dispatch({ type: 'toggleMerge' });
  });
}

/**
 * The checks run when their page opens with no result yet (again after `r` or a change of
 * HA); the answer of a run that was superseded (the operator went back) is dropped.
 */
export function useChecksRun(state: WizardState, dispatch: Dispatch<WizardAction>, runChecks: RunChecks) {
  const { page, choices } = state;
  const checksRun = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the checks start when their page opens or their result is cleared, not on every render
  useEffect(() => {
    if (page !== 'checks') {
      checksRun.current++;
      return;
    }
    if (state.checks !== undefined) return;
    const run = ++checksRun.current;
    const current = () => checksRun.current === run;
    dispatch({ type: 'checks', items: [], done: false });
    runChecks(choices, (items) => current() && dispatch({ type: 'checks', items, done: false })).then(
      (r) => current() && dispatch({ type: 'checks', items: r.items, done: true, blocking: r.blocking, warnings: r.warnings }),
      (err: unknown) =>
        current() &&
        dispatch({
          type: 'checks',
          items: [{ id: 'error', label: 'Checks could not run', state: 'fail', detail: messageOf(err) }],
          done: true,
          blocking: true,
        }),
    );
  }, [page, state.checks === undefined]);
}

/** The install runs once, when the progress page opens. */
export function useInstallRun(state: WizardState, dispatch: Dispatch<WizardAction>, runInstall: RunInstall) {
  const { page, choices } = state;
  const started = useRef<string | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the install starts once, when its page opens
  useEffect(() => {
    if (page !== 'progress' || started.current === 'install') return;
    started.current = 'install';
    runInstall(choices, (items) => dispatch({ type: 'progress', items, done: false })).then(
      (r) => dispatch({ type: 'progress', items: r.steps, done: true, ok: r.ok }),
      (err: unknown) =>
        dispatch({
          type: 'progress',
          items: [{ id: 'error', label: 'Install could not run', state: 'fail', detail: messageOf(err) }],
          done: true,
          ok: false,
        }),
    );
  }, [page]);
}
