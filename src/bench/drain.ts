/**
 * The drain figure, like with like: draining a node that runs 100 evictable pods (one Deployment
 * pinned to it) and giving it back, as whole commands on the same node of the same cluster —
 * `fleetdeck rollout create --node N --replace uncordon --yes` (cordon, drain, uncordon, its
 * health gate once) against `kubectl drain N … && kubectl uncordon N`, with the same drain flags.
 * Between the two the Deployment's replacement pods come back to the node. Target: fleetdeck no
 * slower than kubectl (ratio ≤ 1.0).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { AppsV1Api, CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { makeClient, statusCode } from '../kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../kube/config/kubeconfig.js';
import { waitFor } from '../kube/watch/wait.js';
import { uncordon } from '../kube/nodes/nodes.js';
import { REPLACE_WHEN_DRAINED_ANNOTATION } from '../sandbox/sim/replacer.js';
import { KUBECTL } from './oneshot.js';
import { CLI, childEnv } from './sandbox.js';
import { errorLine, figure, note, progress } from './util.js';

const NAMESPACE = 'fleetdeck-bench-drain';
const DEPLOYMENT = 'drain-bench';
const PODS = 100;
const RATIO_TARGET = 1.0;
const LABEL = `drain: ${PODS} pods`;
const WAIT_MS = 5 * 60_000;

/** Waits (list + watch) until `count` pods of the Deployment run on `node`. */
function podsRunningOn(kc: KubeConfig, node: string, count: number): Promise<string> {
  return waitFor<V1Pod>({
    kc,
    path: `/api/v1/namespaces/${NAMESPACE}/pods`,
    labelSelector: `app=${DEPLOYMENT}`,
    timeoutMs: WAIT_MS,
    check: (items) => {
      const n = items.filter((p) => p.spec?.nodeName === node && p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp).length;
      return { done: n === count, detail: `${n}/${count} pods running on ${node}` };
    },
  });
}

/** Waits until no pod of the namespace is left (the namespace may be gone already). */
function noPodsLeft(kc: KubeConfig): Promise<string> {
  return waitFor<V1Pod>({
    kc,
    path: `/api/v1/namespaces/${NAMESPACE}/pods`,
    timeoutMs: WAIT_MS,
    check: (items) => ({ done: items.length === 0, detail: `${items.length} pods left` }),
  });
}

/** The Ready, schedulable node with the fewest pods, and how many it has. */
async function quietestNode(core: CoreV1Api): Promise<{ node: string; pods: number; slots: number }> {
  const [nodes, pods] = await Promise.all([
    core.listNode(),
    core.listPodForAllNamespaces({ fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' }),
  ]);
  const count = new Map<string, number>();
  for (const p of pods.items) if (p.spec?.nodeName) count.set(p.spec.nodeName, (count.get(p.spec.nodeName) ?? 0) + 1);
  const candidates = nodes.items
    .filter((n) => !n.spec?.unschedulable && (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'))
    .map((n) => ({
      node: n.metadata?.name ?? '',
      pods: count.get(n.metadata?.name ?? '') ?? 0,
      slots: Number(n.status?.allocatable?.pods ?? 110),
    }))
    .sort((a, b) => a.pods - b.pods);
  const best = candidates[0];
  if (!best) throw new Error('no Ready, schedulable node');
  return best;
}

/** Runs a whole command; wall time from spawn to exit, its stderr kept, and when each line of its stdout arrived (ms after spawn). */
function timedCommand(
  cmd: string,
  args: string[],
): Promise<{ ms: number; code: number | null; stderr: string; lines: { at: number; text: string }[] }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    let stderr = '';
    let rest = '';
    const lines: { at: number; text: string }[] = [];
    child.stdout.on('data', (d: Buffer) => {
      const parts = (rest + d.toString()).split('\n');
      rest = parts.pop() ?? '';
      for (const text of parts) lines.push({ at: performance.now() - t0, text });
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - t0, code, stderr, lines });
    });
  });
}

/** When the rollout's output first said `what` (ms after its start), if it did. */
const saidAt = (lines: { at: number; text: string }[], what: RegExp) => lines.find((l) => what.test(l.text))?.at;

/** The drain flags both sides get. */
const DRAIN_FLAGS = ['--delete-emptydir-data', '--force'];

/** `fleetdeck rollout create --node N --replace uncordon --yes`, run here, its health gate passed once. */
function fleetdeckRollout(kubeconfig: string, context: string, node: string) {
  return timedCommand(process.execPath, [
    CLI,
    '--kubeconfig',
    kubeconfig,
    '--context',
    context,
    'rollout',
    'create',
    '--node',
    node,
    '--replace',
    'uncordon',
    ...DRAIN_FLAGS,
    '--timeout',
    '5m',
    '--health-passes',
    '1',
    '--health-interval',
    '1s',
    '--no-in-cluster',
    '--name',
    `bench-drain-${Date.now().toString(36)}`,
    '--yes',
  ]);
}

/** `kubectl drain N … && kubectl uncordon N`: both whole commands, one after the other. */
async function kubectlDrainUncordon(kubeconfig: string, context: string, node: string) {
  const base = ['--kubeconfig', kubeconfig, '--context', context];
  // -v=1 only adds log lines on stderr, among them client-go's long waits on its rate limiter.
  const drain = await timedCommand(KUBECTL, [...base, 'drain', node, '--ignore-daemonsets', ...DRAIN_FLAGS, '--timeout=300s', '-v=1']);
  if (drain.code !== 0) return { ...drain, drainMs: drain.ms };
  const uncordon = await timedCommand(KUBECTL, [...base, 'uncordon', node]);
  return { ms: drain.ms + uncordon.ms, code: uncordon.code, stderr: drain.stderr + uncordon.stderr, drainMs: drain.ms, lines: [] };
}

/** The bench's namespace (kept if it is there) and its Deployment of `PODS` pods pinned to `node`. */
async function deployPinned(core: CoreV1Api, apps: AppsV1Api, node: string): Promise<void> {
  try {
    await core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
  } catch (err) {
    if (statusCode(err) !== 409) throw err;
  }
  await apps.createNamespacedDeployment({
    namespace: NAMESPACE,
    body: {
      metadata: { name: DEPLOYMENT },
      spec: {
        replicas: PODS,
        selector: { matchLabels: { app: DEPLOYMENT } },
        template: {
          metadata: { labels: { app: DEPLOYMENT } },
          spec: {
            nodeSelector: { 'kubernetes.io/hostname': node },
            containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.9' }],
          },
        },
      },
    },
  });
}

/**
 * The sandbox replaces a node that stays cordoned and drained for 2 s (a new name): this one
 * must stay, for kubectl to drain it after fleetdeck.
 */
async function keepNode(kubeconfig: string, context: string, node: string): Promise<void> {
  const kept = await timedCommand(KUBECTL, [
    '--kubeconfig',
    kubeconfig,
    '--context',
    context,
    'annotate',
    'node',
    node,
    `${REPLACE_WHEN_DRAINED_ANNOTATION}=false`,
    '--overwrite',
  ]);
  if (kept.code !== 0) throw new Error(`kubectl annotate node ${node} exited ${kept.code}: ${kept.stderr.trim()}`);
}

/**
 * Prints the drain figure for one sandbox context (the context's nodes must be run by the
 * sandbox's simulated kubelet, which runs pods and completes their graceful deletion). Leaves
 * the node uncordoned and the namespace deleted, also after an error.
 */
export async function drainFigure(kubeconfig: string, context: string): Promise<void> {
  if (!fs.existsSync(KUBECTL)) {
    figure(LABEL, `not measured: ${KUBECTL} not found (set FLEETDECK_BENCH_KUBECTL)`, `≤ ${RATIO_TARGET.toFixed(1)}`, undefined);
    return;
  }
  const kc = configForContext(loadKubeconfig({ kubeconfig }).config, context);
  const core = makeClient(kc, CoreV1Api, 60_000);
  const apps = makeClient(kc, AppsV1Api, 60_000);
  let node: string | undefined;
  try {
    const quiet = await quietestNode(core);
    node = quiet.node;
    if (quiet.pods + PODS > quiet.slots)
      throw new Error(`${node} has ${quiet.pods} pods; ${PODS} more exceed its ${quiet.slots} pod slots`);
    progress(
      `drain: ${context}: ${PODS} pods of Deployment ${NAMESPACE}/${DEPLOYMENT} pinned to ${node} (${quiet.pods} pods there already)`,
    );
    await deployPinned(core, apps, node);
    await podsRunningOn(kc, node, PODS);
    await keepNode(kubeconfig, context, node);

    progress(`drain: fleetdeck rollout create --node ${node} --replace uncordon`);
    const f = await fleetdeckRollout(kubeconfig, context, node);
    if (f.code !== 0) throw new Error(`fleetdeck rollout create exited ${f.code}: ${f.stderr.trim().split('\n').at(-1) ?? ''}`);
    progress(`drain: fleetdeck: ${(f.ms / 1000).toFixed(2)} s`);

    // The replacement pods waited (Pending) for the node; the rollout uncordoned it: they come back.
    await podsRunningOn(kc, node, PODS);

    progress(`drain: kubectl drain ${node} && kubectl uncordon ${node}`);
    const k = await kubectlDrainUncordon(kubeconfig, context, node);
    if (k.code !== 0) throw new Error(`kubectl drain/uncordon exited ${k.code}: ${k.stderr.trim().split('\n').at(-1) ?? ''}`);

    const ratio = f.ms / k.ms;
    figure(
      LABEL,
      `fleetdeck rollout create ${(f.ms / 1000).toFixed(2)} s vs kubectl drain && kubectl uncordon ${(k.ms / 1000).toFixed(2)} s (drain ${(k.drainMs / 1000).toFixed(2)} s), ratio ${ratio.toFixed(2)}×`,
      `≤ ${RATIO_TARGET.toFixed(1)}`,
      ratio <= RATIO_TARGET,
    );
    note(
      `node ${node} of ${context}; both as whole processes; drain flags ${DRAIN_FLAGS.join(' ')} for both (kubectl also --ignore-daemonsets, which fleetdeck does by default); fleetdeck --replace uncordon --health-passes 1 --health-interval 1s --no-in-cluster --yes: it also records the rollout in the cluster and waits for its health gate (every node Ready, no Pending pod) once after the uncordon`,
    );
    const cordoned = saidAt(f.lines, /: cordoned$/);
    const uncordoning = saidAt(f.lines, /: uncordoning/);
    const validating = saidAt(f.lines, /: validating/);
    if (cordoned !== undefined && uncordoning !== undefined && validating !== undefined)
      note(
        `fleetdeck's phases (its output lines as they arrived): start, plan and dry run until cordoned ${(cordoned / 1000).toFixed(2)} s; drain ${((uncordoning - cordoned) / 1000).toFixed(2)} s; uncordon ${((validating - uncordoning) / 1000).toFixed(2)} s; health gate and exit ${((f.ms - validating) / 1000).toFixed(2)} s`,
      );
    const throttled = (k.stderr.match(/due to client-side throttling/g) ?? []).length;
    if (throttled)
      note(
        `kubectl logged ${throttled} waits of over 1 s on its client-side rate limiter (evictions and its per-pod polling GETs share it)`,
      );
  } catch (err) {
    figure(LABEL, `not measured: ${errorLine(err)}`, `≤ ${RATIO_TARGET.toFixed(1)}`, undefined);
  } finally {
    if (node) await uncordon(kc, node).catch((err: unknown) => progress(`drain: uncordon ${node} failed: ${errorLine(err)}`));
    await core.deleteNamespace({ name: NAMESPACE }).catch(() => {});
    await noPodsLeft(kc).catch((err: unknown) => progress(`drain: cleanup: ${errorLine(err)}`));
  }
}
