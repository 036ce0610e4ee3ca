import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { FAULT_ANNOTATION } from '../../../src/sandbox/sim/index.js';
import { LOG_RATE_ANNOTATION } from '../../../src/sandbox/sim/sim-logs.js';
import { eventually } from '../../helpers/cli/cli.js';
import { ETCD_IMAGE } from '../../helpers/sandbox/control-plane.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const sandboxDir = sandbox().dir;
const CONTEXT = 'kind-workload-2';
const NS = 'container-logs';
const clusterDir = path.join(sandboxDir, 'clusters', 'workload-2');
const ctx = (file: string, name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig: file }).config, name);
const core = makeClient(ctx(kubeconfig, CONTEXT), CoreV1Api);

/** `kubectl logs ARGS` in the test namespace: exit code, stdout, stderr. */
function kubectlLogs(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/kubectl',
      ['--kubeconfig', kubeconfig, '--context', CONTEXT, '-n', NS, 'logs', ...args],
      { timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function pod(name: string, annotations: Record<string, string> = {}, container: V1Pod['spec'] = undefined): V1Pod {
  return {
    metadata: { name, annotations },
    spec: container ?? { containers: [{ name: 'app', image: `example.com/${name}:1.0`, ports: [{ containerPort: 9090 }] }] },
  };
}

const reported = (name: string, check: (p: V1Pod) => boolean) =>
  eventually(
    `${name} reported`,
    async () => {
      const p = await core.readNamespacedPod({ name, namespace: NS });
      return check(p) ? p : undefined;
    },
    60_000,
    250,
  );
const running = (p: V1Pod) => !!p.status?.containerStatuses?.[0]?.state?.running;
const waiting = (reason: string) => (p: V1Pod) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === reason;

beforeAll(async () => {
  await createNamespace(core, NS);
  for (const body of [
    pod('plain'),
    pod('chatty', { [LOG_RATE_ANNOTATION]: '1000' }),
    pod('crash', { [FAULT_ANNOTATION]: 'CrashLoopBackOff' }),
    pod('pull', { [FAULT_ANNOTATION]: 'ImagePullBackOff' }),
    pod('notready', { [FAULT_ANNOTATION]: 'NotReady' }),
    pod('etcd', {}, { containers: [{ name: 'etcd', image: ETCD_IMAGE, command: ['etcd'] }] }),
  ]) {
    await core.createNamespacedPod({ namespace: NS, body });
  }
  await Promise.all([
    reported('plain', running),
    reported('chatty', running),
    reported('crash', waiting('CrashLoopBackOff')),
    reported('pull', waiting('ImagePullBackOff')),
    reported('notready', running),
  ]);
}, 120_000);

afterAll(async () => {
  await core.deleteNamespace({ name: NS }).catch(() => undefined);
});

describe('kubectl logs on the sandbox', () => {
  it('shows a simulated container’s start-up lines', async () => {
    const out = await kubectlLogs('plain');
    expect(out.stderr).toBe('');
    expect(out.stdout).toBe(
      'starting app (image example.com/plain:1.0)\nloading configuration from /etc/app/config.yaml\nlistening on :9090\nready\n',
    );
  });

  it('takes --tail and --timestamps as the kubelet does', async () => {
    expect((await kubectlLogs('plain', '--tail=2')).stdout).toBe('listening on :9090\nready\n');
    const stamped = (await kubectlLogs('plain', '--timestamps', '--tail=1')).stdout;
    const m = /^(\S+) ready\n$/.exec(stamped);
    expect(m).not.toBeNull();
    expect(m![1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
    expect(Number.isNaN(Date.parse(m![1]!))).toBe(false);
  });

  it('follows a container that writes as its log-rate annotation asks', async () => {
    const child = spawn('/usr/bin/kubectl', [
      '--kubeconfig',
      kubeconfig,
      '--context',
      CONTEXT,
      '-n',
      NS,
      'logs',
      '-f',
      '--tail=1',
      'chatty',
    ]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    try {
      // --tail=1 sends one line at once; every later one was written after the follow started.
      const first = await eventually('the first line', () => Number(/^log line (\d+)\n/.exec(out)?.[1]), 60_000);
      await eventually('followed lines', () => out.includes(`\nlog line ${first + 500}\n`), 60_000);
    } finally {
      child.kill();
    }
    const numbers = out
      .split('\n')
      .slice(0, -1)
      .map((l) => Number(/^log line (\d+)$/.exec(l)?.[1]));
    expect(numbers.every((x, i) => i === 0 || x === numbers[i - 1]! + 1)).toBe(true);
  });

  it('shows the crash of a container in CrashLoopBackOff, with and without --previous', async () => {
    const current = await kubectlLogs('crash');
    expect(current.stdout).toContain('panic: runtime error: invalid memory address or nil pointer dereference');
    expect(current.stdout.trimEnd().endsWith('exit status 1')).toBe(true);
    const previous = await kubectlLogs('crash', '--previous');
    expect(previous.stdout).toContain('panic: runtime error');
    expect(previous.stdout.trimEnd().endsWith('exit status 1')).toBe(true);
  });

  it('shows a readiness failure of a NotReady container', async () => {
    expect((await kubectlLogs('notready')).stdout).toMatch(/readiness check failed: .*connection refused/);
  });

  it('says why there is nothing to show: no previous instance, image not pulled, wrong container', async () => {
    const previous = await kubectlLogs('plain', '--previous');
    expect(previous.code).not.toBe(0);
    expect(previous.stderr).toContain('previous terminated container "app" in pod "plain" not found');
    const pull = await kubectlLogs('pull');
    expect(pull.code).not.toBe(0);
    expect(pull.stderr).toContain('container "app" in pod "pull" is waiting to start: trying and failing to pull image');
    const wrong = await kubectlLogs('plain', '-c', 'nope');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('container nope is not valid for pod plain');
  });

  it('shows etcd’s own output for a pod that runs etcd for real', async () => {
    await reported('etcd', running);
    const out = await eventually(
      'etcd log lines',
      async () => {
        const text = (await kubectlLogs('etcd')).stdout;
        return /etcdserver|embed:|"level"/.test(text) ? text : undefined;
      },
      60_000,
      500,
    );
    expect(out).not.toContain('sandbox:');
  });

  it('refuses a client without a certificate at the node’s kubelet endpoint', async () => {
    const p = await core.readNamespacedPod({ name: 'plain', namespace: NS });
    const node = await core.readNode({ name: p.spec?.nodeName ?? '' });
    const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
    const ca = fs.readFileSync(path.join(clusterDir, 'pki', 'ca.crt'), 'utf8');
    const code = await new Promise<number>((resolve, reject) => {
      https
        .get(`https://${p.status?.hostIP}:${port}/containerLogs/${NS}/plain/app`, { ca, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(code).toBe(401);
  });

  it('removes a pod’s logs when the pod is deleted', async () => {
    const p = await core.readNamespacedPod({ name: 'plain', namespace: NS });
    const dir = path.join(clusterDir, 'logs', 'pods', `${NS}_plain_${p.metadata?.uid}`);
    expect(fs.existsSync(path.join(dir, 'app', '0.log'))).toBe(true);
    await core.deleteNamespacedPod({ name: 'plain', namespace: NS });
    await eventually('log directory removed', () => !fs.existsSync(dir), 60_000);
  });
});
