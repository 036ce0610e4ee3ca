/**
 * `fleetdeck move KIND/NAME --to CLUSTER [-n NS]`: a workload moved by its annotation
 * `nova.elotl.co/cluster` — the plan, confirmed (or --yes), the annotation set through the write
 * gate, then a line per change until its copy is ready in the target and gone from the source.
 * Run again after an interruption, it sets nothing new and keeps watching. Exit codes: 0 moved
 * (or already there), 1 declined or not done within --timeout, or no such object, 2 usage (an
 * unknown cluster, --read-only, no terminal and no --yes).
 */
import { UsageError, UserError } from '../errors.js';
import { setAnnotation } from '../kube/nova/annotate.js';
import { CLUSTER_ANNOTATION } from '../placement/semantics.js';
import { moveDone, moveLines, movePlan } from '../placement/move.js';
import { workloadRows } from '../placement/rows.js';
import type { GlobalOptions } from '../session/options.js';
import { confirm, interactive } from '../session/prompt.js';
import { openSession } from '../session/session.js';
import { runSignal } from '../session/signals.js';
import { parseRef } from './explain.js';
import { readFleetPlacement } from './placement-read.js';

export interface MoveOptions extends GlobalOptions {
  to: string;
  workloadNamespace?: string;
  yes?: boolean;
  timeout?: number;
}

const POLL_MS = 2_000;
const say = (line: string) => process.stdout.write(`${line}\n`);

export async function runMove(target: string, opts: MoveOptions): Promise<number> {
  const ref = parseRef(target);
  const namespace = opts.workloadNamespace ?? 'default';
  const session = openSession({ ...opts, output: undefined });
  session.assertWritable('move sets an annotation on the control plane');
  const signal = runSignal();
  const find = async () => {
    const { context, kc, read } = await readFleetPlacement(session, 'move');
    const src = read.cp.objects.find(
      (o) => o.kind === ref.kind && o.metadata.name === ref.name && (o.metadata.namespace ?? '') === namespace,
    );
    const clusters = read.cp.clusters.map((c) => c.metadata.name);
    const row = src ? workloadRows({ ...read, cp: { ...read.cp, objects: [src] } })[0] : undefined;
    return { context, kc, src, row, clusters };
  };
  const first = await find();
  if (!first.src || !first.row)
    throw new UserError(
      `${ref.kind.toLowerCase()}/${ref.name} not found in namespace ${namespace} of the control plane (${first.context})`,
    );
  if (!first.clusters.includes(opts.to))
    throw new UsageError(`no Nova cluster named ${opts.to}; the clusters are ${first.clusters.join(', ') || 'none'}`);
  const annotated = (first.src.metadata.annotations as Record<string, string> | undefined)?.[CLUSTER_ANNOTATION] === opts.to;
  if (annotated && moveDone(first.row, opts.to)) {
    say(`${ref.kind.toLowerCase()}/${ref.name} already runs in ${opts.to} (annotation set): nothing to do.`);
    return 0;
  }
  if (!annotated) {
    say(movePlan(first.row, opts.to));
    if (!opts.yes && !interactive()) throw new UsageError('move changes the control plane: confirm with --yes');
    if (!opts.yes && !(await confirm('Move it?'))) {
      say('Nothing was changed.');
      return 1;
    }
    const s = first.src;
    await setAnnotation(
      session.kc(first.context),
      { apiVersion: s.apiVersion, kind: s.kind, namespace: s.metadata.namespace, name: s.metadata.name },
      CLUSTER_ANNOTATION,
      opts.to,
    );
    say(`annotation nova.elotl.co/cluster=${opts.to} set`);
  } else say(`the annotation already names ${opts.to}: watching the move`);
  const deadline = Date.now() + (opts.timeout ?? 5 * 60_000);
  let said = new Set<string>();
  for (;;) {
    const now = await find();
    if (!now.row) throw new UserError(`${ref.kind.toLowerCase()}/${ref.name} was deleted from the control plane meanwhile`);
    const lines = moveLines(now.row, opts.to);
    for (const l of lines) if (!said.has(l)) say(l);
    said = new Set(lines);
    if (moveDone(now.row, opts.to)) {
      say(`Moved: ${ref.kind.toLowerCase()}/${ref.name} runs in ${opts.to}.`);
      return 0;
    }
    if (Date.now() > deadline) {
      say(`Not done within the timeout: ${lines.join('; ')}. Run the same command again to keep watching.`);
      return 1;
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, POLL_MS);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          resolve();
        },
        { once: true },
      );
    });
    if (signal.aborted) throw signal.reason;
  }
}
