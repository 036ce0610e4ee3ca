/** Running a rollout here, in plain mode: a line per change (or, in a terminal, the live view); Ctrl-C pauses it. */
import type { KubeConfig } from '@kubernetes/client-node';
import { runRollout } from '../../rollout/runner/run.js';
import { serveRolloutMetrics } from './metrics-listen.js';
import { redactedState } from '../../rollout/guards/redact.js';
import type { RolloutState } from '../../rollout/types.js';
import { renderRolloutLive, type LiveView } from '../../screens/rollouts/rollout-live.js';
import { colorEnabled, type GlobalOptions } from '../../session/options.js';
import { runSignal } from '../../session/signals.js';
import { changePrinter, resultLines, write } from './lines.js';
import { type OutputFormat, streamItem } from '../../output/format.js';

/** The live view, in a terminal without -o (and not in CI). */
export function liveView(opts: GlobalOptions, ascii: boolean, waiting: string): LiveView | undefined {
  if (!process.stdout.isTTY || process.env.CI || opts.output !== undefined) return undefined;
  return renderRolloutLive({ ascii, color: colorEnabled(opts), waiting });
}

const exitFor = (state: RolloutState) => (state.phase === 'Completed' ? 0 : 1);

export interface DriveOptions {
  output: OutputFormat;
  ascii: boolean;
  forceTakeover: boolean;
  /** HOST:PORT: the rollout's Prometheus metrics served there (GET /metrics) while it runs. */
  metricsListen?: string | undefined;
  /** The in-cluster runner: metrics it cannot serve are said, and the rollout goes on without them. */
  metricsBestEffort?: boolean;
}

/** Metrics that cannot be served stop a run here before it starts; the in-cluster runner goes on without them. */
const metricsFailed = (d: DriveOptions) => (err: unknown) => {
  if (!d.metricsBestEffort) throw err;
  write(`${(err as Error).message}; the rollout goes on without metrics`);
  return undefined;
};

/** Runs the rollout here with a line per change; Ctrl-C, SIGTERM or SIGHUP pauses it (recorded, resumable). */
export async function drive(kc: KubeConfig, state: RolloutState, context: string, d: DriveOptions, opts: GlobalOptions): Promise<number> {
  return exitFor(await driveToEnd(kc, state, context, d, opts));
}

/** As drive, resolving with the rollout's final state. */
export async function driveToEnd(
  kc: KubeConfig,
  state: RolloutState,
  context: string,
  d: DriveOptions,
  opts: GlobalOptions,
): Promise<RolloutState> {
  const served = d.metricsListen ? await serveRolloutMetrics(d.metricsListen).catch(metricsFailed(d)) : undefined;
  // In a terminal: the log scrolls by above a live table of the nodes; otherwise a line per change.
  const live = liveView(opts, d.ascii, `starting rollout ${state.spec.name}…`);
  const onState = live ? (s: RolloutState) => live.update(s) : changePrinter(d.output, d.ascii);
  let final: RolloutState;
  try {
    const metrics = served ? { metrics: served.metrics } : {};
    final = await runRollout(kc, state, { forceTakeover: d.forceTakeover, context, ...metrics }, onState, runSignal());
  } finally {
    live?.stop();
    await served?.close();
  }
  if (d.output !== 'text') write(streamItem(d.output, { kind: 'result', state: redactedState(final) }));
  else for (const l of resultLines(final, context)) write(l);
  return final;
}
