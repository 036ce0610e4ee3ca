import fs from 'node:fs';
import path from 'node:path';
import { BatchV1Api, CoreV1Api, RbacAuthorizationV1Api, type V1Pod, type V1PodSpec } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { canUnshare } from '../../../src/sandbox/sim/hosts.js';
import { readState } from '../../../src/sandbox/state.js';
import { PACKAGE_ROOT } from '../../../src/paths.js';
import { eventually } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { ignore } from '../../helpers/sandbox/nova.js';
import { sandboxContainerLog } from '../../helpers/sandbox/container-logs.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const sandboxDir = sandbox().dir;
const kc = configForContext(loadKubeconfig({ kubeconfig }).config, 'kind-workload-1');
const core = makeClient(kc, CoreV1Api);
const batch = makeClient(kc, BatchV1Api);
const NS = 'fleetdeck-runner';
const SA = 'runner';
const IMAGE = 'ghcr.io/fleetdeck/fleetdeck:test';
const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const VERSION = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** What the pod's container wrote in its last run (a log file per run, as the kubelet keeps them). */
function lastRun(pod: string): string {
  return sandboxContainerLog(path.join(sandboxDir, 'clusters', 'workload-1'), NS, pod, 'fleetdeck', true);
}

function podSpec(args: string[], restartPolicy = 'Never'): V1PodSpec {
  const env = [
    { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
  ];
  return { serviceAccountName: SA, restartPolicy, containers: [{ name: 'fleetdeck', image: IMAGE, args, env }] };
}

/** The PID the sandbox recorded for the pod's fleetdeck container. */
function podPid(pod: string): number | undefined {
  const record = readState(sandboxDir)?.clusters.find((c) => c.context === 'kind-workload-1');
  return Object.entries(record?.podProcesses ?? {}).find(([k]) => k.startsWith(`${NS}/${pod}/fleetdeck@`))?.[1];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function jobPod(job: string): Promise<V1Pod> {
  return eventually(
    `a pod of Job ${job}`,
    async () => (await core.listNamespacedPod({ namespace: NS, labelSelector: `job-name=${job}` })).items[0],
  );
}

describe('the fleetdeck image runs in a pod as the local bundle, with in-cluster credentials', () => {
  beforeAll(async () => {
    await createNamespace(core, NS);
    await core.createNamespacedServiceAccount({ namespace: NS, body: { metadata: { name: SA } } });
    const rbac = makeClient(kc, RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace: NS,
      body: { metadata: { name: SA }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: NS,
      body: {
        metadata: { name: SA },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: SA },
        subjects: [{ kind: 'ServiceAccount', name: SA, namespace: NS }],
      },
    });
    // The ServiceAccount's own token Secret, before a pod refers to it.
    await eventually(
      'the runner token',
      async () => ((await core.readNamespacedServiceAccount({ name: SA, namespace: NS })).secrets ?? [])[0],
    );
  });

  afterAll(async () => {
    await core.deleteNamespace({ name: NS }).catch(ignore(404));
  });

  it('a Job running `fleetdeck --version` completes: pod Succeeded, Job Complete, the version in the container log', async () => {
    await batch.createNamespacedJob({
      namespace: NS,
      body: { metadata: { name: 'version' }, spec: { backoffLimit: 0, template: { spec: podSpec(['--version']) } } },
    });
    const job = await eventually(
      'Job version complete',
      async () => {
        const j = await batch.readNamespacedJob({ name: 'version', namespace: NS });
        return j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ? j : undefined;
      },
      60_000,
      250,
    );
    expect(job.status?.succeeded).toBe(1);
    const pod = await jobPod('version');
    expect(pod.status?.phase).toBe('Succeeded');
    expect(pod.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    // The ServiceAccount admission plugin mounted the runner's token Secret.
    expect(pod.spec?.containers[0]?.volumeMounts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ mountPath: SA_DIR, readOnly: true, name: expect.stringMatching(/^runner-token-/) }),
      ]),
    );
    expect(lastRun(pod.metadata?.name ?? '')).toBe(`${VERSION}\n`);
  });

  it('a Job whose fleetdeck exits non-zero fails (restartPolicy Never): pod Failed, Job Failed', async () => {
    await batch.createNamespacedJob({
      namespace: NS,
      body: { metadata: { name: 'bad-flag' }, spec: { backoffLimit: 0, template: { spec: podSpec(['--no-such-flag']) } } },
    });
    await eventually(
      'Job bad-flag failed',
      async () =>
        (await batch.readNamespacedJob({ name: 'bad-flag', namespace: NS })).status?.conditions?.some(
          (c) => c.type === 'Failed' && c.status === 'True',
        ),
      60_000,
      250,
    );
    const pod = await jobPod('bad-flag');
    expect(pod.status?.phase).toBe('Failed');
    expect(pod.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(2);
    expect(pod.status?.containerStatuses?.[0]?.restartCount).toBe(0);
  });

  it('reaches the API server with the pod’s service account, read at the standard path', async () => {
    await core.createNamespacedPod({ namespace: NS, body: { metadata: { name: 'status' }, spec: podSpec(['status', '-o', 'json']) } });
    await eventually('status pod finished', async () => {
      const p = await core.readNamespacedPod({ name: 'status', namespace: NS });
      return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
    });
    const report = JSON.parse(lastRun('status')) as {
      contexts: { name: string; reachable: boolean; pods: { forbidden?: string } }[];
    };
    const ctx = report.contexts.find((c) => c.name === 'in-cluster');
    expect(ctx?.reachable).toBe(true);
    // Authenticated as the ServiceAccount: its Role allows pods in its namespace only.
    expect(ctx?.pods.forbidden).toContain(`system:serviceaccount:${NS}:${SA}`);
  });

  it('a long-running fleetdeck sees the token at the standard path, and is stopped when its pod is deleted (also forced)', async () => {
    for (const name of ['watch', 'watch-forced']) {
      await core.createNamespacedPod({ namespace: NS, body: { metadata: { name }, spec: podSpec(['status', '--watch']) } });
    }
    for (const name of ['watch', 'watch-forced']) {
      await eventually(`${name} Running and Ready`, async () => {
        const p = await core.readNamespacedPod({ name, namespace: NS });
        return p.status?.phase === 'Running' && p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
      });
    }
    const pid = await eventually('the watch process', () => podPid('watch'));
    const forcedPid = await eventually('the forced watch process', () => podPid('watch-forced'));
    expect(alive(pid) && alive(forcedPid)).toBe(true);
    const secret = await core.readNamespacedSecret({
      namespace: NS,
      name: (await core.readNamespacedServiceAccount({ name: SA, namespace: NS })).secrets?.[0]?.name ?? '',
    });
    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain('KUBERNETES_SERVICE_HOST=127.0.0.1');
    expect(environ).toContain('POD_NAME=watch');
    expect(environ.find((e) => e.startsWith('NODE_NAME='))).toMatch(/^NODE_NAME=workload-1-node-\d+(-r\d+)?$/);
    // What the process sees at /var/run/secrets/… (its own mount namespace): the Secret's files.
    expect(
      canUnshare(),
      'pods get their own mount namespace: the tests run as root with util-linux unshare (src/sandbox/test-tools.sh)',
    ).toBe(true);
    // /var/run is a link to /run on most machines, resolved here, not under /proc/<pid>/root.
    const dir = path.join(fs.realpathSync(path.dirname(path.dirname(path.dirname(SA_DIR)))), 'secrets/kubernetes.io/serviceaccount');
    const seen = (f: string) => fs.readFileSync(`/proc/${pid}/root${dir}/${f}`);
    expect(seen('namespace').toString()).toBe(NS);
    expect(seen('token').equals(Buffer.from(secret.data?.token ?? '', 'base64'))).toBe(true);
    expect(seen('ca.crt').equals(Buffer.from(secret.data?.['ca.crt'] ?? '', 'base64'))).toBe(true);
    expect(environ.some((e) => e.startsWith('FLEETDECK_SERVICEACCOUNT_ROOT='))).toBe(false);
    // Not on the machine: the mount is the process's own.
    expect(fs.existsSync(`${SA_DIR}/token`)).toBe(false);

    await core.deleteNamespacedPod({ name: 'watch', namespace: NS, gracePeriodSeconds: 5 });
    await core.deleteNamespacedPod({ name: 'watch-forced', namespace: NS, gracePeriodSeconds: 0 });
    await eventually('both processes ended', () => !alive(pid) && !alive(forcedPid), 20_000);
    await eventually(
      'the pod gone',
      async () => (await core.listNamespacedPod({ namespace: NS, fieldSelector: 'metadata.name=watch' })).items.length === 0,
    );
  });
});
