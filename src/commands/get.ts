/**
 * `fleetdeck get nodes|pods`: the nodes, or the pods needing attention, of several contexts in
 * one table (or JSON / YAML), the rows of the dashboard's Fleet views. Read-only: the same
 * one-shot lists `fleetdeck status` makes. Exit codes: 0 every context read, 1 one or more could
 * not be (each said in one line on stderr; the others are printed), 2 usage.
 */
import { collectStatus } from '../feeds/status-feed.js';
import { UsageError } from '../errors.js';
import { fleetRows, formatFleetRows } from '../report/fleet-output.js';
import { podsLeftOut, unreadable, type FleetKind } from '../report/fleet-rows.js';
import { requireOutput, type GlobalOptions } from '../session/options.js';
import { startSession } from '../session/session.js';
import { statusWaitMs } from './status.js';

export interface GetOptions extends Omit<GlobalOptions, 'output'> {
  allContexts?: boolean;
  output?: string;
}

const RESOURCES: Record<string, FleetKind> = { nodes: 'nodes', node: 'nodes', no: 'nodes', pods: 'pods', pod: 'pods', po: 'pods' };

/** The resource named on the command line (kubectl's names and short names). */
export function getResource(resource: string): FleetKind {
  const kind = RESOURCES[resource.toLowerCase()];
  if (!kind) throw new UsageError(`get ${resource}: not supported; fleetdeck get lists nodes or pods (the pods needing attention)`);
  return kind;
}

/** The contexts to read: every one of the kubeconfig, or each --context, else the current one. */
function contexts(opts: GetOptions) {
  const given = (opts.context ?? []).filter(Boolean);
  if (opts.allContexts && given.length > 0) throw new UsageError('get: give --all-contexts or --context, not both');
  const global: GlobalOptions = { ...opts, output: undefined, namespace: undefined };
  // Every context: the kubeconfig's and the control plane's the install wrote, as the dashboard shows them.
  if (opts.allContexts) return startSession(global, { showFleetProblems: true, allContexts: true });
  const session = startSession(global, { useFleetFile: false });
  // Checked as every multi-context command checks them (known, credentials loadable).
  const names = session.several('get').map((c) => c.context);
  const picked = session.withContexts(names);
  void picked.contexts;
  return picked;
}

const warn = (text: string) => process.stderr.write(`fleetdeck: ${text}\n`);

export async function runGet(resource: string, opts: GetOptions): Promise<number> {
  const kind = getResource(resource);
  const output = requireOutput(opts.output);
  const session = contexts(opts);
  if (session.contexts.length === 0) {
    warn(`no kube contexts (${session.files.join(', ') || 'no kubeconfig file found'})`);
    return 1;
  }
  const state = await collectStatus(session.kc, session.contexts, statusWaitMs());
  let failed = 0;
  for (const name of state.status.order) {
    const ctx = state.status.contexts[name];
    const why = ctx?.reachability === 'unknown' ? 'no answer in time' : ctx && unreadable(ctx, kind);
    if (ctx && why !== undefined) {
      failed++;
      warn(`context ${name}: ${kind} not read: ${why}`);
    } else if (ctx && kind === 'pods' && podsLeftOut(ctx) > 0) {
      warn(`context ${name}: ${ctx.pods.problemCount} pods need attention; the ${ctx.pods.problems.length} worst are listed`);
    }
  }
  const rows = fleetRows(kind, state);
  if (rows.length === 0 && output === 'text') {
    const read = state.status.order.length - failed;
    if (read > 0) warn(`no ${kind === 'nodes' ? 'nodes' : 'pods needing attention'} in ${read} context${read === 1 ? '' : 's'}`);
  } else {
    const text = formatFleetRows(kind, rows, output);
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  return failed > 0 ? 1 : 0;
}
