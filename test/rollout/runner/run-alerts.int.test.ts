/**
 * The alert gate and the runner's metrics against the sandbox's real Prometheus and Alertmanager
 * (test/helpers/sandbox/monitoring.ts): a rollout held while TargetDown fires (a pod annotated
 * for scraping that does not answer) and let go once it resolves, read from Prometheus and from
 * Alertmanager; an in-cluster rollout's runner pod scraped by Prometheus through its annotations,
 * its node counts and its hold in the metrics.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, runCli } from '../../helpers/cli/cli.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';
import { type Monitoring, monitoring } from '../../helpers/sandbox/monitoring.js';
import { cleanUpGuardMarks, createRollout, heldBy, inPhase } from './guard-cluster.js';
import {
  CONTEXT,
  FAST,
  NS,
  cli,
  core,
  podSpec,
  rolloutName,
  rollouts,
  schedulable,
  touched,
  unschedulable,
  setUpRunCluster,
} from './run-cluster.js';

setUpRunCluster('alerts');
cleanUpGuardMarks();

/** The runner's own namespace: another file's cleanup of the default one never races this file's Job. */
const RUNNER_NS = `fd-runner-${NS.alerts.slice(-5)}`;

let m: Monitoring;
beforeAll(async () => {
  m = await monitoring(sandbox());
});
afterAll(async () => {
  await runCli(cli(['rollout', 'cleanup', '--context', CONTEXT, '--runner-namespace', RUNNER_NS, '--yes']));
  await core.deleteNamespace({ name: RUNNER_NS }).catch(() => {});
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The node the file's pods run on (never one a rollout takes: a pod without a controller would refuse its drain). */
const podsNode = async () => (await schedulable()).at(-1)!;

/** A pod Prometheus scrapes where nothing answers: TargetDown fires for it. */
async function silentTarget(name: string): Promise<void> {
  await core.createNamespacedPod({
    namespace: NS.alerts,
    body: {
      metadata: { name, annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9113' } },
      spec: { nodeName: await podsNode(), containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] },
    },
  });
  await m.waitForAlert('TargetDown', 'firing', { labels: { namespace: NS.alerts, pod: name } });
}

async function removeTarget(name: string): Promise<void> {
  await core.deleteNamespacedPod({ namespace: NS.alerts, name, gracePeriodSeconds: 0 });
  await m.waitForAlert('TargetDown', 'resolved', { labels: { namespace: NS.alerts, pod: name } });
}

describe('the alert gate and the metrics, with the sandbox’s Prometheus and Alertmanager', () => {
  /** A rollout on `node` with the alert gate of `api` while TargetDown fires, then once it resolved: what it showed. */
  async function gated(api: 'Prometheus' | 'Alertmanager', url: string, node: string) {
    await silentTarget('silent');
    const name = rolloutName(`alert-${api.toLowerCase()}`);
    const run = createRollout(
      name,
      [node],
      [api === 'Prometheus' ? '--prometheus-url' : '--alertmanager-url', url, '--alert-match', '^TargetDown$'],
    );
    const held = await heldBy(name, 'alerts', run);
    const cordonedWhileHeld = await unschedulable(node);
    await removeTarget('silent');
    const done = await run.done;
    return { reason: held.hold!.reason, cordonedWhileHeld, code: done.code, final: await inPhase(name, 'Completed') };
  }

  it('a firing alert holds the rollout (read from Prometheus, then from Alertmanager) until it resolves', async () => {
    const [node] = await schedulable();
    const prometheus = await gated('Prometheus', m.prometheusUrl, node!);
    const alertmanager = await gated('Alertmanager', m.alertmanagerUrl, node!);
    expect(prometheus.reason).toMatch(new RegExp(`^held by \\d+ firing alerts?: TargetDown.* \\(Prometheus ${m.prometheusUrl}`));
    expect(alertmanager.reason).toMatch(new RegExp(`^held by \\d+ firing alerts?: TargetDown.* \\(Alertmanager ${m.alertmanagerUrl}`));
    expect([prometheus.cordonedWhileHeld, alertmanager.cordonedWhileHeld]).toEqual([false, false]);
    expect([prometheus.code, alertmanager.code]).toEqual([0, 0]);
    expect(prometheus.final.log.map((l) => l.message)).toContain(`held: ${prometheus.reason}`);
    expect(alertmanager.final.nodes[0]!.phase).toBe('done');
  });

  it('an alert gate that cannot be read holds the rollout, saying why', async () => {
    const [node] = await schedulable();
    const name = rolloutName('alert-down');
    const port = await closedPort();
    const run = createRollout(name, [node!], ['--prometheus-url', `http://127.0.0.1:${port}`]);
    const held = await heldBy(name, 'alerts', run);
    expect(held.hold!.reason).toBe(
      `cannot read alerts from http://127.0.0.1:${port}/api/v1/alerts: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    const abort = await runCli(cli(['rollout', 'abort', name, '--context', CONTEXT, '--yes']));
    expect(abort.code, abort.stderr).toBe(0);
    expect((await run.done).code).toBe(1);
  });

  it('the in-cluster runner’s /metrics is scraped by Prometheus: node counts and the hold', async () => {
    const [node] = await schedulable();
    await core.createNamespacedPod({
      namespace: NS.alerts,
      body: { metadata: { name: 'backup', labels: { 'fd-block': 'metrics' } }, spec: podSpec({ nodeName: await podsNode() }) },
    });
    const name = rolloutName('metrics');
    rollouts.add(name);
    touched.add(node!);
    const created = await runCli(
      cli([
        'rollout',
        'create',
        '--context',
        CONTEXT,
        '--node',
        node!,
        '--name',
        name,
        '--replace',
        'uncordon',
        '--in-cluster',
        '--runner-namespace',
        RUNNER_NS,
        '--image',
        'ghcr.io/fleetdeck/fleetdeck:test',
        '--recheck',
        '1s',
        '--blocking-pod-selector',
        'fd-block=metrics',
        ...FAST,
      ]),
      { timeoutMs: 180_000 },
    );
    expect(created.code, created.stdout + created.stderr).toBe(0);
    await heldBy(name, 'pods');
    const sel = `rollout="${name}"`;
    const held = await eventually(
      'Prometheus scraped the runner while held',
      async () => {
        const samples = await m.query(`fleetdeck_rollout_held{${sel},gate="pods"} == 1`);
        return samples.length ? samples : undefined;
      },
      120_000,
      500,
    );
    expect(held[0]!.metric).toMatchObject({ job: 'kubernetes-pods', cluster: CONTEXT, namespace: RUNNER_NS });
    const nodes = await m.query(`fleetdeck_rollout_nodes{${sel}}`);
    expect(Object.fromEntries(nodes.map((s) => [s.metric.state, s.value]))).toMatchObject({ waiting: 1, done: 0, draining: 0 });

    await core.deleteNamespacedPod({ namespace: NS.alerts, name: 'backup', gracePeriodSeconds: 0 });
    await inPhase(name, 'Completed', 180_000);
  });
});
