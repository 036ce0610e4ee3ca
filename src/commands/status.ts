import type { KubeConfig } from '@kubernetes/client-node';
import { startStatusFeed } from '../feeds/status-feed.js';
import { fleetHealthy, statusChecks, statusJson, statusText } from '../report/status.js';
import { collectStatus } from '../feeds/status-feed.js';
import { ChecklistDiff } from '../report/watch-lines.js';
import { clock } from '../store/selectors.js';
import { requestTimeout } from '../kube/transport/request-timeout.js';
import type { ContextInfo } from '../kube/config/kubeconfig.js';
import type { FleetConfig } from '../kube/fleet/fleet.js';
import { asciiOnly, requireOutput, type GlobalOptions } from '../session/options.js';
import { openSession, type Session } from '../session/session.js';
import { untilStopped } from '../session/signals.js';
import { document, type OutputFormat, streamItem } from '../output/format.js';

const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/**
 * `fleetdeck status`: the fleet checklist and every context once; exit 0 when healthy,
 * 1 when not. With --watch it keeps watching and prints each change as a line.
 */
export async function runStatus(opts: GlobalOptions, sel: Session = openSession(opts, { showFleetProblems: true })): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  const { contexts, files, fleet } = sel;
  if (contexts.length === 0) {
    const where = files.length ? files.join(', ') : 'no kubeconfig file found';
    if (output !== 'text') write(document(output, { contexts: [] }));
    else write(`No kube contexts (${where}). Start the sandbox fleet with: fleetdeck sandbox up`);
    return 1;
  }
  if (opts.watch) return watchStatus(sel.kc, contexts, { fleet, warnDays: opts.warnDays }, output, ascii);
  const collected = await collectStatus(sel.kc, contexts, statusWaitMs(), fleet);
  const state = opts.warnDays === undefined ? collected : { ...collected, certs: { ...collected.certs, warnDays: opts.warnDays } };
  if (output !== 'text') write(document(output, statusJson(state)));
  else write(statusText(state, { ascii }));
  return fleetHealthy(state) ? 0 : 1;
}

/** How long a one-shot status waits for every context: 15 s, or longer when --request-timeout allows it (0: as long as it takes). */
export function statusWaitMs(): number {
  const perRequest = requestTimeout();
  if (perRequest === undefined) return 15_000;
  return perRequest === 0 ? 2 ** 31 - 1 : Math.max(15_000, perRequest);
}

/**
 * Plain-mode live view: every checklist item once, then one line (text), one JSON object
 * (json) or one YAML document (yaml) per change, until interrupted.
 */
async function watchStatus(
  kc: (context: string) => KubeConfig,
  contexts: ContextInfo[],
  feed: { fleet: FleetConfig | undefined; warnDays: number | undefined },
  output: OutputFormat,
  ascii: boolean,
): Promise<number> {
  const watcher = startStatusFeed(kc, contexts, feed);
  const diff = new ChecklistDiff();
  const emit = () => {
    const now = Date.now();
    for (const line of diff.next(statusChecks(watcher.store.getState()), ascii)) {
      if (output !== 'text') {
        const { id, label, state, detail, hint } = line.item;
        write(streamItem(output, { time: new Date(now).toISOString(), id, label, state, detail: detail ?? null, hint: hint ?? null }));
      } else {
        write(`${clock(now)} ${line.text}`);
        if (line.item.hint && line.item.state !== 'ok') write(`         ${line.item.hint}`);
      }
    }
  };
  const unsubscribe = watcher.store.subscribe(emit);
  emit();
  // Until Ctrl-C, SIGTERM or SIGHUP.
  await untilStopped();
  unsubscribe();
  await watcher.stop();
  return 0;
}
