/** `fleetdeck rollout watch`: a rollout's progress from its ConfigMap until it ends, or every rollout until Ctrl-C. */
import type { KubeConfig } from '@kubernetes/client-node';
import { livenessText } from '../../report/rollout/holder.js';
import { holderView, readRolloutLease } from '../../rollout/ownership.js';
import { watchRollouts } from '../../rollout/state.js';
import { OWNER_STALE_MS, type RolloutState } from '../../rollout/types.js';
import { clock } from '../../store/selectors.js';
import type { LiveView } from '../../screens/rollouts/rollout-live.js';
import { onStop } from '../../session/signals.js';
import { changePrinter, resultLines, write } from './lines.js';
import { type OutputFormat, streamItem } from '../../output/format.js';

const ENDED = new Set(['Completed', 'Aborted', 'Failed', 'Paused']);

export interface WatchTarget {
  kc: KubeConfig;
  context: string;
  /** One rollout, or every rollout of the cluster. */
  name: string | undefined;
  output: OutputFormat;
  ascii: boolean;
  live: LiveView | undefined;
}

/** A Running rollout whose holder no longer renews its Lease is not going anywhere: the line that says so. */
async function staleLine(t: WatchTarget, last: RolloutState): Promise<string | undefined> {
  if (last.phase !== 'Running') return undefined;
  const lease = await readRolloutLease(t.kc, last.spec.name).catch(() => undefined);
  const v = holderView(lease, last, Date.now());
  if (v?.liveness.state === 'live') return undefined;
  const why = v ? `its holder ${v.holder} is ${livenessText(v.liveness)}` : 'nobody runs it';
  return t.output === 'text'
    ? `Rollout ${t.name} is Running but ${why}; continue it with: fleetdeck rollout resume ${t.name} --context ${t.context}`
    : streamItem(t.output, { kind: 'stale', rollout: t.name, owner: v ? { holder: v.holder, state: v.liveness.state } : null });
}

/**
 * Prints the progress until the rollout ends (0 completed, 1 paused, failed, aborted, deleted,
 * or its owner stopped reporting); without a name, every rollout until Ctrl-C (0).
 */
export function watchUntilEnd(t: WatchTarget): Promise<number> {
  const { name, output } = t;
  const print = t.live ? (s: RolloutState) => t.live?.update(s) : changePrinter(output, t.ascii, { prefixName: !name });
  let last: RolloutState | undefined;
  return new Promise<number>((resolve) => {
    let finished = false;
    const finish = (code: number, line?: string) => {
      if (finished) return;
      finished = true;
      clearInterval(staleCheck);
      cancelStop();
      void watch.stop().then(() => {
        t.live?.stop();
        if (line) write(line);
        resolve(code);
      });
    };
    // Ctrl-C, SIGTERM, SIGHUP: the run exits with the signal's code.
    const cancelStop = onStop(() => finish(name ? 1 : 0));
    const watch = watchRollouts(
      t.kc,
      {
        onState: (s) => {
          last = s;
          print(s);
          if (!name || !ENDED.has(s.phase) || s.owner) return;
          finish(s.phase === 'Completed' ? 0 : 1, output === 'text' ? resultLines(s, t.context).join('\n') : undefined);
        },
        onDeleted: (n) => {
          if (name && n === name)
            finish(1, output === 'text' ? `Rollout ${name} was deleted.` : streamItem(output, { kind: 'deleted', rollout: name }));
        },
        onError: (m) => {
          if (output === 'text') write(`${clock(Date.now())} watch: ${m}`);
        },
      },
      name,
    );
    const staleCheck = setInterval(() => {
      if (!name || !last) return;
      void staleLine(t, last).then((line) => {
        if (line) finish(1, line);
      });
    }, OWNER_STALE_MS / 3);
  });
}
