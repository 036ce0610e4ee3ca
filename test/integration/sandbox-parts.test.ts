import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppsV1Api, CoreV1Api, StorageV1Api, type KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { describe, expect, inject, it } from 'vitest';
import { makeClient, statusCode } from '../../src/kube/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/kubeconfig.js';
import { FAULT_ANNOTATION } from '../../src/sandbox/sim/index.js';
import { eventually, runCli } from '../helpers/cli.js';

const kubeconfig = inject('kubeconfig');
const readOnlyKubeconfig = inject('readOnlyKubeconfig');
const sandboxDir = inject('sandboxDir');

const ctx = (file: string, name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig: file }).config, name);

describe('what the sandbox simulates', () => {
  it('gives a LoadBalancer Service an ingress IP on loopback', async () => {
    const core = makeClient(ctx(kubeconfig, 'kind-cp'), CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'lb' } } });
    await core.createNamespacedService({
      namespace: 'lb',
      body: { metadata: { name: 'apiserver' }, spec: { type: 'LoadBalancer', selector: { app: 'x' }, ports: [{ port: 443 }] } },
    });
    const ip = await eventually('ingress IP', async () => {
      const s = await core.readNamespacedService({ name: 'apiserver', namespace: 'lb' });
      return s.status?.loadBalancer?.ingress?.[0]?.ip;
    });
    expect(ip).toMatch(/^127\./);
  });

  it('provisions and binds volumes so a StatefulSet with claims reaches Running', async () => {
    const kc = ctx(kubeconfig, 'kind-cp');
    const core = makeClient(kc, CoreV1Api);
    const apps = makeClient(kc, AppsV1Api);
    const classes = (await makeClient(kc, StorageV1Api).listStorageClass()).items;
    const defaults = classes.filter((c) => c.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true');
    expect(defaults).toHaveLength(1);
    await core.createNamespace({ body: { metadata: { name: 'sts' } } });
    const labels = { app: 'etcd' };
    await apps.createNamespacedStatefulSet({
      namespace: 'sts',
      body: {
        metadata: { name: 'etcd' },
        spec: {
          serviceName: 'etcd',
          replicas: 3,
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: 'etcd', image: 'registry.k8s.io/pause:3.9' }] } },
          volumeClaimTemplates: [
            { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
          ],
        },
      },
    });
    await eventually('3 etcd pods Running', async () => {
      const pods = (await core.listNamespacedPod({ namespace: 'sts', labelSelector: 'app=etcd' })).items;
      return pods.length === 3 && pods.every((p) => p.status?.phase === 'Running');
    }, 120_000);
    const claims = (await core.listNamespacedPersistentVolumeClaim({ namespace: 'sts' })).items;
    expect(claims.map((c) => c.status?.phase)).toEqual(['Bound', 'Bound', 'Bound']);
  });

  it('plays failing containers on request: CrashLoopBackOff, ImagePullBackOff, NotReady', async () => {
    const core = makeClient(ctx(kubeconfig, 'kind-cp'), CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'faults' } } });
    for (const fault of ['CrashLoopBackOff', 'ImagePullBackOff', 'NotReady', 'none']) {
      await core.createNamespacedPod({
        namespace: 'faults',
        body: {
          metadata: { name: fault.toLowerCase(), annotations: fault === 'none' ? {} : { [FAULT_ANNOTATION]: fault } },
          spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] },
        },
      });
    }
    const state = async (name: string) => {
      const p = await core.readNamespacedPod({ name, namespace: 'faults' });
      const c = p.status?.containerStatuses?.[0];
      const ready = p.status?.conditions?.find((x) => x.type === 'Ready')?.status;
      return [p.status?.phase, c?.state?.waiting?.reason ?? (c?.state?.running ? 'running' : undefined), ready, c?.restartCount];
    };
    await eventually('faults reported', async () => (await state('crashloopbackoff'))[1] === 'CrashLoopBackOff', 30_000);
    expect(await state('crashloopbackoff')).toEqual(['Running', 'CrashLoopBackOff', 'False', 5]);
    await eventually('image pull', async () => (await state('imagepullbackoff'))[1] === 'ImagePullBackOff', 30_000);
    expect(await state('imagepullbackoff')).toEqual(['Pending', 'ImagePullBackOff', 'False', 0]);
    await eventually('not ready', async () => (await state('notready'))[0] === 'Running', 30_000);
    expect(await state('notready')).toEqual(['Running', 'running', 'False', 0]);
    expect(await state('none')).toEqual(['Running', 'running', 'True', 0]);
    // And records the Warning events a kubelet would.
    const reasons = await eventually('kubelet warnings', async () => {
      const events = (await core.listNamespacedEvent({ namespace: 'faults', fieldSelector: 'type=Warning' })).items;
      const byPod = new Map(events.filter((e) => e.source?.component === 'kubelet').map((e) => [e.involvedObject.name, e.reason]));
      return byPod.size === 3 ? byPod : undefined;
    });
    expect(Object.fromEntries(reasons)).toEqual({ crashloopbackoff: 'BackOff', imagepullbackoff: 'Failed', notready: 'Unhealthy' });
  });

  it('has a read-only user that can list but not change or read secrets', async () => {
    const core = makeClient(ctx(readOnlyKubeconfig, 'kind-cp'), CoreV1Api);
    expect((await core.listNode()).items.length).toBe(6);
    const create = await core.createNamespace({ body: { metadata: { name: 'nope' } } }).catch((e: unknown) => e);
    expect(statusCode(create)).toBe(403);
    const secrets = await core.listSecretForAllNamespaces().catch((e: unknown) => e);
    expect(statusCode(secrets)).toBe(403);
  });

  it('an exec-plugin user (client certificate from the plugin) works as in kubectl', async () => {
    const { config } = loadKubeconfig({ kubeconfig });
    const cluster = config.getCluster('kind-workload-1')!;
    const admin = config.getUser('kind-workload-1-admin')!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-exec-'));
    const credential = path.join(dir, 'credential.json');
    fs.writeFileSync(
      credential,
      JSON.stringify({
        apiVersion: 'client.authentication.k8s.io/v1beta1',
        kind: 'ExecCredential',
        status: {
          clientCertificateData: Buffer.from(admin.certData!, 'base64').toString(),
          clientKeyData: Buffer.from(admin.keyData!, 'base64').toString(),
        },
      }),
      { mode: 0o600 },
    );
    const execKubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(
      execKubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'w1', cluster: { server: cluster.server, 'certificate-authority-data': cluster.caData } }],
        users: [{ name: 'plugin', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'cat', args: [credential] } } }],
        contexts: [{ name: 'exec-ctx', context: { cluster: 'w1', user: 'plugin' } }],
        'current-context': 'exec-ctx',
      }),
      { mode: 0o600 },
    );
    const res = await runCli(['status', '-o', 'json', '--kubeconfig', execKubeconfig]);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(res.code).toBe(0);
    const json = JSON.parse(res.stdout) as { contexts: { name: string; reachable: boolean; nodes: { total: number } }[] };
    expect(json.contexts[0]).toMatchObject({ name: 'exec-ctx', reachable: true, nodes: { total: 6 } });
  });

  it('`sandbox up` again while it runs just prints the export line again', async () => {
    const res = await runCli(['sandbox', 'up', '--dir', sandboxDir]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe(`export KUBECONFIG=${kubeconfig}`);
  });

  it('`sandbox status` lists every cluster healthy', async () => {
    const res = await runCli(['sandbox', 'status', '-o', 'json', '--dir', sandboxDir]);
    expect(res.code).toBe(0);
    const s = JSON.parse(res.stdout) as { running: boolean; clusters: { context: string; apiserver: string; nodes: { ready: number } }[] };
    expect(s.running).toBe(true);
    expect(s.clusters.map((c) => [c.context, c.apiserver, c.nodes.ready])).toEqual([
      ['kind-cp', 'ready', 6],
      ['kind-workload-1', 'ready', 6],
      ['kind-workload-2', 'ready', 6],
    ]);
  });
});
