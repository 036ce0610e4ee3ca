/**
 * `fleetdeck explain KIND/NAME [-n NS]` (NS: the workload's namespace): the placement checklist of one workload of the fleet's
 * control plane, in plain lines. Read-only. Exit codes: 0 placed and its copies fine, 1 pending,
 * orphaned, moving or drifted (or no such object), 2 usage.
 */
import { formatChecklist } from '../checklist/checklist.js';
import { UsageError, UserError } from '../errors.js';
import { kindOf } from '../kube/nova/kinds.js';
import { explainWorkload } from '../placement/explain.js';
import { asciiOnly, type GlobalOptions } from '../session/options.js';
import { openSession } from '../session/session.js';
import { readFleetPlacement } from './placement-read.js';

const ALIASES: Record<string, string> = {
  deploy: 'deployments',
  sts: 'statefulsets',
  rs: 'replicasets',
  ds: 'daemonsets',
  svc: 'services',
  cm: 'configmaps',
  sa: 'serviceaccounts',
};

/** `deployment/web`, `deploy/web`, `Deployment/web`: the kind and the name. */
export function parseRef(text: string): { kind: string; name: string } {
  const [k = '', name = '', ...rest] = text.split('/');
  const kind = kindOf(ALIASES[k.toLowerCase()] ?? k) ?? kindOf(`${k.toLowerCase()}s`);
  if (!name || rest.length || !kind)
    throw new UsageError(
      `explain ${text}: give KIND/NAME of a workload kind (deployment, statefulset, replicaset, daemonset, job, service, configmap, secret, serviceaccount)`,
    );
  return { kind: kind.kind, name };
}

export interface ExplainOptions extends GlobalOptions {
  workloadNamespace?: string;
}

export async function runExplain(target: string, opts: ExplainOptions): Promise<number> {
  const ref = parseRef(target);
  const namespace = opts.workloadNamespace ?? 'default';
  const { context, read } = await readFleetPlacement(openSession({ ...opts, output: undefined }), 'explain');
  const found = explainWorkload(read, { ...ref, namespace });
  if (!found)
    throw new UserError(`${ref.kind.toLowerCase()}/${ref.name} not found in namespace ${namespace} of the control plane (${context})`);
  const { row, items } = found;
  process.stdout.write(
    `${row.kind.toLowerCase()}/${row.name} in ${namespace}: ${row.state}\n${formatChecklist(items, { ascii: asciiOnly(opts) })}\n`,
  );
  return row.state === 'placed' || row.state === 'divided' || row.state === 'duplicated' ? 0 : 1;
}
