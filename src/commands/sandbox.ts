import { UsageError, UserError } from '../errors.js';
import { describeError } from '../kube/transport/client.js';
import { annotateNode, listLabeledNodes } from '../kube/nodes/nodes.js';
import { ReadOnlyRefusal } from '../kube/transport/gate.js';
import { controlMonitoring, controlProcess, exportLine, sandboxDown, sandboxStatus, sandboxUp } from '../sandbox/commands.js';
import type { SandboxStatus } from '../sandbox/health.js';
import { monitoringBinaries } from '../sandbox/monitoring-access.js';
import { ensureBinaries } from '../sandbox/binaries.js';
import { REPLACE_WHEN_DRAINED_ANNOTATION, SANDBOX_NODE_ANNOTATION } from '../sandbox/sim/index.js';
import { sandboxDir, type SandboxState } from '../sandbox/state.js';
import { supervise } from '../sandbox/supervisor.js';
import { requireOutput, type GlobalOptions } from '../session/options.js';
import { type Session, startSession } from '../session/session.js';
import { releaseSignals, runSignal, signalExitCode } from '../session/signals.js';
import { document } from '../output/format.js';

export interface SandboxCommandOptions {
  sub:
    | 'up'
    | 'down'
    | 'status'
    | 'stop-apiserver'
    | 'start-apiserver'
    | 'stop-etcd'
    | 'start-etcd'
    | 'monitoring start'
    | 'monitoring stop'
    | '__supervise';
  dir?: string;
  workloads?: number;
  nodes?: number;
  /** `up --replace-drained`: asked for explicitly (the default; on a running sandbox: annotate its nodes). */
  replaceDrained?: boolean;
  /** `--no-replace` makes it false: cordoned and drained nodes stay. */
  replace?: boolean;
  /** `up --with-monitoring`: Prometheus and Alertmanager too (started on a sandbox already running without them). */
  withMonitoring?: boolean;
  args?: string[];
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

/** Runs `sandbox up` stopping on Ctrl-C, SIGTERM or SIGHUP: an interrupt stops whatever was started. */
export async function upWithInterrupt(
  dir: string,
  workloads: number,
  nodes: number,
  progress: (l: string) => void,
  opts: { replaceDrained?: boolean; withMonitoring?: boolean } = {},
) {
  const signal = runSignal();
  try {
    return await sandboxUp({
      dir,
      workloads,
      nodes,
      progress,
      signal,
      replaceDrained: opts.replaceDrained !== false,
      withMonitoring: opts.withMonitoring === true,
    });
  } catch (err) {
    if (signal.aborted) throw new UserError('interrupted: everything the sandbox had started was stopped', signalExitCode() ?? 1);
    throw err;
  }
}

/**
 * Annotates the simulated nodes of every sandbox cluster for replacement when drained, for a
 * sandbox that was already running with `--no-replace` and is given `--replace-drained` (the
 * nodes it registers from now on are not). Returns how many nodes were annotated.
 *
 * The clients come from `session` (one on the sandbox's kubeconfig: see sandboxSession), so the
 * annotations pass its write gate: under --read-only it is refused before anything is read.
 */
export async function annotateForReplacement(state: SandboxState, session: Pick<Session, 'kc' | 'assertWritable'>): Promise<number> {
  session.assertWritable("sandbox up --replace-drained annotates the running sandbox's nodes");
  let annotated = 0;
  for (const c of state.clusters) {
    const kc = session.kc(c.context);
    try {
      for (const node of await listLabeledNodes(kc)) {
        if (!node.annotations[SANDBOX_NODE_ANNOTATION] || node.annotations[REPLACE_WHEN_DRAINED_ANNOTATION] === 'true') continue;
        await annotateNode(kc, node.name, { [REPLACE_WHEN_DRAINED_ANNOTATION]: 'true' });
        annotated++;
      }
    } catch (err) {
      if (err instanceof ReadOnlyRefusal) throw err;
      throw new UserError(`${c.context}: cannot annotate the nodes for replacement: ${describeError(err)}`);
    }
  }
  return annotated;
}

/**
 * The session of the sandbox's own clusters: its kubeconfig alone (no fleet file, none of the
 * fleet flags), with the run's write gate (--read-only).
 */
export function sandboxSession(state: Pick<SandboxState, 'kubeconfig'>, opts: Pick<GlobalOptions, 'readOnly'>): Session {
  return startSession({ kubeconfig: state.kubeconfig, readOnly: opts.readOnly }, { useFleetFile: false });
}

/** `sandbox status` as text: a verdict, a table of the clusters, a line per cluster that is not healthy. */
function statusText(s: SandboxStatus): void {
  if (!s.running) {
    out(s.problem ?? `the sandbox is not running (${s.dir}); start it with: fleetdeck sandbox up`);
    return;
  }
  out(s.healthy ? `sandbox ready in ${s.dir}` : `sandbox in ${s.dir} is NOT healthy: ${s.problem ?? s.phase}`);
  out(`${'CONTEXT'.padEnd(18)} ${'API SERVER'.padEnd(10)} ${'PROCESSES'.padEnd(9)} ${'NODES'.padEnd(11)} SERVER`);
  for (const c of s.clusters) {
    const nodes = c.nodes ? `${c.nodes.ready}/${c.nodes.total} Ready` : '-';
    out(
      `${c.context.padEnd(18)} ${c.apiserver.padEnd(10)} ${`${c.processes.running}/${c.processes.expected}`.padEnd(9)} ${nodes.padEnd(11)} ${c.server}`,
    );
  }
  for (const c of s.clusters) if (c.problem) out(c.problem);
  if (s.monitoring) {
    const m = s.monitoring;
    out(`${'prometheus'.padEnd(18)} ${m.prometheus.state.padEnd(10)} ${m.prometheus.url}`);
    out(`${'alertmanager'.padEnd(18)} ${m.alertmanager.state.padEnd(10)} ${m.alertmanager.url}`);
    if (m.problem && m.problem !== s.problem) out(m.problem);
  }
  if (s.kubeconfig) out(`export KUBECONFIG=${s.kubeconfig}`);
}

/** The lines of `sandbox up` naming where Prometheus and Alertmanager answer (none without them). */
function monitoringLines(state: SandboxState): string[] {
  const m = state.monitoring;
  return m ? [`${'prometheus'.padEnd(18)} ${m.prometheus.url}`, `${'alertmanager'.padEnd(18)} ${m.alertmanager.url}`] : [];
}

/** Whether drained nodes are replaced: the default, off with `--no-replace` (which `--replace-drained` contradicts). */
function replacing(opts: SandboxCommandOptions): boolean {
  if (opts.replace === false && opts.replaceDrained) throw new UsageError('--replace-drained and --no-replace contradict each other');
  return opts.replace !== false;
}

export async function runSandbox(opts: GlobalOptions & SandboxCommandOptions): Promise<number> {
  const dir = sandboxDir(opts.dir);
  switch (opts.sub) {
    case 'up': {
      // Missing programs are said before anything starts.
      if (opts.withMonitoring) monitoringBinaries();
      let state = await upWithInterrupt(dir, opts.workloads ?? 2, opts.nodes ?? 6, (l) => err(`sandbox: ${l}`), {
        replaceDrained: replacing(opts),
        withMonitoring: opts.withMonitoring,
      });
      if (opts.replaceDrained) {
        const n = await annotateForReplacement(state, sandboxSession(state, opts));
        if (n > 0) err(`sandbox: already running; annotated ${n} node${n === 1 ? '' : 's'} ${REPLACE_WHEN_DRAINED_ANNOTATION}=true`);
      }
      if (opts.withMonitoring && !state.monitoring) {
        err('sandbox: already running; starting Prometheus and Alertmanager');
        state = (await controlMonitoring(dir, 'start')).state;
      }
      for (const c of state.clusters) out(`${c.context.padEnd(18)} https://127.0.0.1:${c.ports.apiserver}`);
      for (const line of monitoringLines(state)) out(line);
      out(`read-only kubeconfig: ${state.readOnlyKubeconfig}`);
      out(exportLine(state));
      return 0;
    }
    case 'monitoring start': {
      const { message, state } = await controlMonitoring(dir, 'start');
      err(`sandbox: ${message}`);
      for (const line of monitoringLines(state)) out(line);
      return 0;
    }
    case 'monitoring stop':
      out((await controlMonitoring(dir, 'stop')).message);
      return 0;
    case 'down':
      return sandboxDown(dir, { out, err });
    case 'status': {
      const output = requireOutput(opts.output);
      const s = await sandboxStatus(dir);
      if (output !== 'text') out(document(output, s));
      else statusText(s);
      return s.healthy ? 0 : 1;
    }
    case 'stop-apiserver':
    case 'start-apiserver':
    case 'stop-etcd':
    case 'start-etcd': {
      const context = opts.args?.[0];
      if (!context) throw new UsageError(`sandbox ${opts.sub} needs a context, e.g. kind-workload-1`);
      const [action, role] = opts.sub.split('-') as ['stop' | 'start', 'apiserver' | 'etcd'];
      out(await controlProcess(dir, context, role, action));
      return 0;
    }
    case '__supervise': {
      // The supervisor handles the signals itself: each shuts everything down in order, a second one does not cut that short.
      releaseSignals();
      const binaries = await ensureBinaries();
      const replaceDrained = replacing(opts);
      const withMonitoring = opts.withMonitoring === true;
      return supervise({ dir, workloads: opts.workloads ?? 2, nodes: opts.nodes ?? 6, binaries, replaceDrained, withMonitoring });
    }
  }
}
