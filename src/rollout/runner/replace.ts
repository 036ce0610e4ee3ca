/** The replacement phase of a drained node, by the spec's mode: wait for a new node, delete the Node object, or uncordon. */
import { describeError } from '../../kube/transport/client.js';
import { deleteNode, uncordon, waitForNodes } from '../../kube/nodes/nodes.js';
import { WaitTimeout } from '../../kube/watch/wait.js';
import { abortReason } from '../abortable.js';
import type { NodeStatus } from '../types.js';
import { NodeStop, type RunContext } from './context.js';
import { appendLog, replacementVerdict } from './decide.js';

/** Wait mode: until the old node is gone and a new Ready one joined. Resolves with the new node's name. */
async function waitForReplacement(ctx: RunContext, n: NodeStatus): Promise<string | undefined> {
  const rolloutNodes = ctx.writer.state.nodes.map((x) => x.name);
  // Replacements other nodes of the rollout claimed, read at every check (a batch may wait for several at once).
  const claimed = () => ctx.writer.state.nodes.filter((x) => x.name !== n.name && x.replacement).map((x) => x.replacement!);
  let found: string | undefined;
  await waitForNodes(
    ctx.kc,
    (nodes) => {
      const v = replacementVerdict(n, nodes, new Set([...rolloutNodes, ...claimed()]));
      found = v.replacement;
      return { done: v.oldGone && v.replacement !== undefined, detail: v.detail };
    },
    ctx.replaceTimeoutMs,
    ctx.signal,
  );
  return found;
}

/** The drained node's replacement, by the spec's mode. Resolves with the new node's name (wait mode). */
async function replaceNode(ctx: RunContext, n: NodeStatus): Promise<string | undefined> {
  switch (ctx.spec.replace) {
    case 'uncordon':
      await uncordon(ctx.kc, n.name);
      return undefined;
    case 'delete-node':
      await deleteNode(ctx.kc, n.name);
      return undefined;
    case 'wait':
      return waitForReplacement(ctx, n);
  }
}

/** replacing → validating; a replacement that fails or times out pauses the rollout. */
export async function replacePhase(ctx: RunContext, name: string): Promise<void> {
  const { writer, spec } = ctx;
  let replacement: string | undefined;
  if (spec.replace === 'wait') {
    // Said on the node's row: what it waits for, since and until when.
    const now = Date.now();
    writer.changeNode(name, (x) => {
      x.replaceWait = { since: new Date(now).toISOString(), until: new Date(now + ctx.replaceTimeoutMs).toISOString() };
    });
    await writer.flush();
  }
  try {
    replacement = await replaceNode(ctx, writer.node(name));
  } catch (err) {
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    const message = err instanceof WaitTimeout ? `replacement of ${name}: ${err.message}` : `replacement of ${name}: ${describeError(err)}`;
    writer.changeNode(name, (x, st) => {
      x.error = message;
      delete x.replaceWait;
      appendLog(st, `${name}: ${message}`);
    });
    await writer.flush();
    ctx.events.node(name, writer.node(name).uid, 'Warning', 'ReplacementFailed', message);
    throw new NodeStop('pause', message);
  }
  writer.changeNode(name, (x, st) => {
    x.phase = 'validating';
    delete x.error;
    delete x.replaceWait;
    if (replacement) x.replacement = replacement;
    const what =
      spec.replace === 'uncordon' ? 'uncordoned' : spec.replace === 'delete-node' ? 'Node object deleted' : `replaced by ${replacement}`;
    appendLog(st, `${name}: ${what}`);
  });
  await writer.flush();
  const uid = writer.node(name).uid;
  if (spec.replace === 'uncordon')
    ctx.events.node(name, uid, 'Normal', 'NodeUncordoned', `Node ${name} uncordoned by rollout ${spec.name}`);
  else if (spec.replace === 'delete-node')
    ctx.events.node(name, uid, 'Normal', 'NodeDeleted', `Node ${name} deleted by rollout ${spec.name}`);
  else ctx.events.node(name, uid, 'Normal', 'NodeReplaced', `Node ${name} replaced by ${replacement ?? 'a new node'}`);
}
