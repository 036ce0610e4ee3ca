/**
 * `fleetdeck workloads`: every workload of the fleet's control plane with where Nova placed it,
 * the replicas its copies run there and its state. Read-only. Exit codes: 0 all placed, 1 one
 * or more pending, drifted or orphaned (or a workload cluster could not be read), 2 usage.
 */
import { type WorkloadRow, workloadRows } from '../placement/rows.js';
import { document } from '../output/format.js';
import { workloadsText } from '../report/workloads.js';
import { requireOutput, type GlobalOptions } from '../session/options.js';
import { openSession } from '../session/session.js';
import { readFleetPlacement } from './placement-read.js';

export interface WorkloadsOptions extends Omit<GlobalOptions, 'output'> {
  output?: string;
  pending?: boolean;
  cluster?: string;
}

const BAD: ReadonlySet<WorkloadRow['state']> = new Set(['pending', 'drifted', 'orphaned']);

const warn = (text: string) => process.stderr.write(`fleetdeck: ${text}\n`);

export async function runWorkloads(opts: WorkloadsOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const { read } = await readFleetPlacement(openSession({ ...opts, output: undefined }), 'workloads');
  for (const c of read.copies) if (c.error) warn(`cluster ${c.clusterName} (context ${c.context}) not read: ${c.error}`);
  const all = workloadRows(read);
  const rows = all.filter(
    (r) => (!opts.pending || r.state === 'pending') && (!opts.cluster || r.clusters.some((c) => c.cluster === opts.cluster)),
  );
  if (output !== 'text') process.stdout.write(`${document(output, { workloads: rows })}\n`);
  else if (rows.length === 0) warn(all.length ? 'no workload matches' : 'no workloads in the control plane');
  else process.stdout.write(`${workloadsText(rows)}\n`);
  return rows.some((r) => BAD.has(r.state)) || read.copies.some((c) => c.error) ? 1 : 0;
}
