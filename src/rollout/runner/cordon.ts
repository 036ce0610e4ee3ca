/** The cordon phase of a node: recorded first (abort then knows to uncordon it), then done. */
import { describeError } from '../../kube/transport/client.js';
import { cordon, readNodeSummary, type NodeSummary } from '../../kube/nodes/nodes.js';
import { appendLog } from './decide.js';
import { markTaken } from './marks.js';
import { NodeStop, type RunContext } from './context.js';

/** The node, or why it cannot be taken (gone, unreadable). */
async function readTarget(ctx: RunContext, name: string): Promise<NodeSummary | string> {
  try {
    return (await readNodeSummary(ctx.kc, name)) ?? `node ${name} no longer exists`;
  } catch (err) {
    return `cannot read node ${name}: ${describeError(err)}`;
  }
}

/**
 * waiting → cordoned. Recorded before the cordon: a kill between the two leaves a node abort
 * uncordons (harmless) rather than one it forgets. A node that cannot be read fails and pauses.
 */
export async function cordonPhase(ctx: RunContext, name: string): Promise<void> {
  const { writer } = ctx;
  const node = await readTarget(ctx, name);
  if (typeof node === 'string') {
    writer.changeNode(name, (x, st) => {
      x.phase = 'failed';
      x.error = node;
      appendLog(st, `${name}: ${node}`);
    });
    await writer.flush();
    throw new NodeStop('pause', node);
  }
  ctx.signal.throwIfAborted();
  writer.changeNode(name, (x, st) => {
    x.phase = 'cordoned';
    x.cordonedByUs = !node.unschedulable;
    if (node.uid) x.uid = node.uid;
    x.startedAt = new Date().toISOString();
    appendLog(st, `${name}: cordoned${x.cordonedByUs ? '' : ' (it was cordoned already)'}`);
  });
  await writer.flush();
  await cordon(ctx.kc, name);
  await markTaken(ctx, name);
  const cordoned = writer.node(name);
  ctx.events.node(
    name,
    cordoned.uid,
    'Normal',
    'NodeCordoned',
    cordoned.cordonedByUs
      ? `Node ${name} cordoned by rollout ${ctx.spec.name}`
      : `Node ${name} was cordoned already; rollout ${ctx.spec.name} takes it`,
  );
  // Every node there is now was created before that write: wait mode's replacement comes after (written with the next change).
  const after = writer.serverTime;
  if (after)
    writer.changeNode(name, (x) => {
      x.replaceAfter = after;
    });
}
