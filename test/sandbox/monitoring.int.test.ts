/**
 * The sandbox's Prometheus and Alertmanager on the worker's fleet (test/helpers/sandbox/monitoring.ts):
 * a pod annotated for scraping that does not answer fires TargetDown in both, deleting it resolves
 * it; a pod whose process serves /metrics (etcd, which the sandbox runs for real) is scraped.
 */
import crypto from 'node:crypto';
import { CoreV1Api, type V1Container, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { isOurs, readState } from '../../src/sandbox/state.js';
import { eventually, runCli } from '../helpers/cli/cli.js';
import { ETCD_IMAGE } from '../helpers/sandbox/control-plane.js';
import { sandbox } from '../helpers/sandbox/fleet.js';
import { type Monitoring, monitoring } from '../helpers/sandbox/monitoring.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';
import { expectMatchesSchema } from '../helpers/schema.js';

const CONTEXT = 'kind-workload-1';
const NS = `mon-${crypto.randomBytes(3).toString('hex')}`;
const fleet = sandbox();
const core = makeClient(configForContext(loadKubeconfig({ kubeconfig: fleet.kubeconfig }).config, CONTEXT), CoreV1Api);

/** A pod annotated for scraping on `port`. */
function scraped(name: string, port: number, container: V1Container): V1Pod {
  return {
    metadata: { name, namespace: NS, annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port) } },
    spec: { containers: [container] },
  };
}

let m: Monitoring;

beforeAll(async () => {
  m = await monitoring(fleet);
  await createNamespace(core, NS);
});

// Gone before the next file on this fleet starts: a bare pod left behind would refuse its drains.
afterAll(async () => {
  await core.deleteNamespace({ name: NS }).catch(() => undefined);
  await eventually(
    `the pods of ${NS} gone`,
    async () => (await core.listNamespacedPod({ namespace: NS })).items.length === 0,
    120_000,
    500,
  );
});

describe("the sandbox's Prometheus and Alertmanager", () => {
  it('run as the sandbox’s processes, recorded in its state, shown by sandbox status, started once', async () => {
    const state = readState(fleet.dir)?.monitoring;
    expect(state && [state.prometheus.url, state.alertmanager.url]).toEqual([m.prometheusUrl, m.alertmanagerUrl]);
    expect(m.prometheusUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(isOurs(state?.prometheus.pid, fleet.dir)).toBe(true);
    expect(isOurs(state?.alertmanager.pid, fleet.dir)).toBe(true);
    // Asked again (as the next file on the fleet does): the same processes.
    const again = await runCli(['sandbox', 'monitoring', 'start', '--dir', fleet.dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`prometheus         ${m.prometheusUrl}\n`);
    const after = readState(fleet.dir)?.monitoring;
    expect([after?.prometheus.pid, after?.alertmanager.pid]).toEqual([state?.prometheus.pid, state?.alertmanager.pid]);

    const status = await runCli(['sandbox', 'status', '-o', 'json', '--dir', fleet.dir]);
    const s = JSON.parse(status.stdout) as { monitoring?: { prometheus: { url: string; state: string }; alertmanager: { state: string } } };
    expectMatchesSchema(s, 'sandbox-status');
    expect([s.monitoring?.prometheus.url, s.monitoring?.prometheus.state, s.monitoring?.alertmanager.state]).toEqual([
      m.prometheusUrl,
      'ready',
      'ready',
    ]);
    for (const url of [m.prometheusUrl, m.alertmanagerUrl]) expect((await fetch(`${url}/-/ready`)).status).toBe(200);
  });

  it('a pod annotated for scraping that does not answer fires TargetDown in Prometheus and Alertmanager; deleting it resolves it', async () => {
    // nginx is simulated: nothing answers at its pod IP.
    await core.createNamespacedPod({
      namespace: NS,
      body: scraped('silent', 9113, { name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }),
    });
    const labels = { namespace: NS, pod: 'silent' };
    const firing = await m.waitForAlert('TargetDown', 'firing', { labels });
    expect(firing.map((a) => a.labels)).toEqual([
      expect.objectContaining({ alertname: 'TargetDown', severity: 'warning', job: 'kubernetes-pods', cluster: CONTEXT, ...labels }),
    ]);
    const up = await m.query(`up{namespace="${NS}",pod="silent"}`);
    expect(up.map((s) => [s.metric.cluster, s.value])).toEqual([[CONTEXT, 0]]);

    await core.deleteNamespacedPod({ name: 'silent', namespace: NS });
    expect(await m.waitForAlert('TargetDown', 'resolved', { labels })).toEqual([]);
  });

  it('a pod whose process serves /metrics is scraped: up is 1 and its own metrics are there', async () => {
    await core.createNamespacedPod({
      namespace: NS,
      body: scraped('etcd-metrics', 2379, { name: 'etcd', image: ETCD_IMAGE, command: ['etcd'], ports: [{ containerPort: 2379 }] }),
    });
    const sel = `namespace="${NS}",pod="etcd-metrics"`;
    const up = await eventually(
      'up == 1 for the etcd pod',
      async () => {
        const samples = await m.query(`up{${sel}}`);
        return samples.some((s) => s.value === 1) ? samples : undefined;
      },
      120_000,
      500,
    );
    expect(up.map((s) => [s.metric.job, s.metric.cluster, s.value])).toEqual([['kubernetes-pods', CONTEXT, 1]]);
    const leader = await eventually('etcd_server_has_leader of the pod', async () => {
      const samples = await m.query(`etcd_server_has_leader{${sel}}`);
      return samples.length ? samples : undefined;
    });
    expect(leader.map((s) => s.value)).toEqual([1]);
  });
});
