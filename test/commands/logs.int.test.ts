import { spawn } from 'node:child_process';
import { AppsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, type V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { CLI, eventually, runCli } from '../helpers/cli/cli.js';
import { startCli, stopCli } from '../helpers/sandbox/fault-sandbox.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

/**
 * `fleetdeck logs` on the sandbox: targets resolved to pods, the lines of several pods merged with
 * their prefixes, pods joining a follow, a crashed container's previous instance, the errors.
 * The simulated pods write `sandbox.fleetdeck.io/log-rate` lines a second.
 */
const W1 = 'kind-workload-1';
const NS = `logs-${process.pid}`;
const base = () => ['--kubeconfig', sandbox().kubeconfig, '--context', W1, '-n', NS];

let core: CoreV1Api;
let apps: AppsV1Api;

function deployment(
  name: string,
  replicas: number,
  annotations: Record<string, string> = { 'sandbox.fleetdeck.io/log-rate': '5' },
): V1Deployment {
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations },
        spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] },
      },
    },
  };
}

/** Pods of the deployment running, their names. */
async function runningPods(app: string, n: number): Promise<string[]> {
  return eventually(
    `${n} running pods of ${app}`,
    async () => {
      const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: `app=${app}` });
      const running = pods.items.filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp);
      return running.length === n ? running.map((p) => p.metadata!.name!) : undefined;
    },
    60_000,
  );
}

beforeAll(async () => {
  const kc = configForContext(loadKubeconfig({ kubeconfig: sandbox().kubeconfig }).config, W1);
  core = makeClient(kc, CoreV1Api);
  apps = makeClient(kc, AppsV1Api);
  await createNamespace(core, NS);
  await apps.createNamespacedDeployment({ namespace: NS, body: deployment('web', 2) });
  await runningPods('web', 2);
});

afterAll(async () => {
  await core?.deleteNamespace({ name: NS }).catch(() => {});
});

describe('fleetdeck logs: targets and errors', () => {
  it('a deployment that is not there: one line naming it, exit 1', async () => {
    const r = await runCli(['logs', ...base(), 'deploy/nope']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`fleetdeck: context ${W1}: deployment "nope" not found in namespace ${NS}`);
  });

  it('a pod that is not there: one line, exit 1', async () => {
    const r = await runCli(['logs', ...base(), 'nope-pod']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/pod "nope-pod" not found in namespace/);
  });

  it('no pods matched: one line, exit 1', async () => {
    const r = await runCli(['logs', ...base(), '-l', 'app=nothing-here']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`fleetdeck: no pods for pods matching app=nothing-here in namespace ${NS} of ${W1}`);
  });

  it('-c naming a container the pod lacks: the containers it has, exit 1', async () => {
    const [pod] = await runningPods('web', 2);
    const r = await runCli(['logs', ...base(), `pod/${pod}`, '-c', 'nope']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`fleetdeck: container nope is not valid for pod ${pod}; it has: [app]`);
  });

  it('-f on more streams than --max-log-requests: kubectl’s line, exit 2', async () => {
    await runningPods('web', 2);
    const r = await runCli(['logs', ...base(), '-f', 'deploy/web', '--max-log-requests', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'fleetdeck: you are attempting to follow 2 log streams, but maximum allowed concurrency is 1, use --max-log-requests to increase the limit',
    );
  });

  it('--fleet: the agent Deployment of each workload context, the components in the hosting context', async () => {
    const fleet = ['--kubeconfig', sandbox().kubeconfig, '--hosting-context', 'kind-cp', '--context', W1, '--namespace', NS];
    const agents = await runCli(['logs', ...fleet, '--agents']);
    expect(agents.code).toBe(1);
    expect(agents.stderr.trim()).toBe(`fleetdeck: context ${W1}: deployment "nova-agent" not found in namespace ${NS}`);
    const cp = await runCli(['logs', ...fleet, '--control-plane']);
    expect(cp.code).toBe(1);
    expect(cp.stderr.trim()).toMatch(
      new RegExp(
        `^fleetdeck: no pods for the control plane's components \\(app=etcd, component=apiserver.*\\) in namespace ${NS} of kind-cp$`,
      ),
    );
  });

  it('several contexts: each is asked; the one without the workload is named, the others are read', async () => {
    const r = await runCli([
      'logs',
      '--kubeconfig',
      sandbox().kubeconfig,
      '--context',
      W1,
      '--context',
      'kind-workload-2',
      '-n',
      NS,
      'deploy/web',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`fleetdeck: context kind-workload-2: deployment "web" not found in namespace ${NS}`);
    expect(r.stdout).toMatch(new RegExp(`^${W1}/web-[a-z0-9-]+/\\S+ `, 'm'));
  });

  it('-f of one pod ends (exit 0) when the pod is deleted', async () => {
    await core.createNamespacedPod({
      namespace: NS,
      body: {
        metadata: { name: 'solo', labels: { app: 'solo' } },
        spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] },
      },
    });
    await runningPods('solo', 1);
    const cli = startCli(['logs', ...base(), '-f', 'pod/solo']);
    try {
      // Following: the pod's watch is up once the first request of the stream was made.
      await eventually('the follow to start', () => cli.lines.length > 0 || cli.stderr() !== '', 60_000);
      await core.deleteNamespacedPod({ name: 'solo', namespace: NS, gracePeriodSeconds: 0 });
      await eventually('the follow to end', () => cli.child.exitCode !== null || cli.child.signalCode !== null, 60_000);
      expect(await cli.done).toEqual({ code: 0, signal: null });
    } finally {
      await stopCli(cli);
    }
  });

  it('with -f and a selector that matches nothing yet: it says so on stderr and waits', async () => {
    const cli = startCli(['logs', ...base(), '-f', '-l', 'app=later']);
    await eventually('the waiting line', () => /no pods for pods matching app=later .* yet; waiting/.test(cli.stderr()));
    await stopCli(cli);
    expect((await cli.done).code).toBe(130);
  });
});

describe('fleetdeck logs: reading', () => {
  it('a Deployment of two pods: both merged by time, each line prefixed context/pod/container', async () => {
    const pods = await runningPods('web', 2);
    const r = await eventually(
      'lines of both pods',
      async () => {
        const run = await runCli(['logs', ...base(), 'deployment/web', '--timestamps']);
        return run.code === 0 && pods.every((p) => run.stdout.includes(`${W1}/${p}/app `)) ? run : undefined;
      },
      60_000,
      1000,
    );
    const lines = r.stdout.trim().split('\n');
    const stamps = lines.map((l) => {
      const m = /^(\S+)\/(\S+)\/app (\S+) /.exec(l);
      expect(m, l).not.toBeNull();
      expect(m![1]).toBe(W1);
      expect(pods).toContain(m![2]);
      return Date.parse(m![3]!);
    });
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('-o json: one object per line with context, namespace, pod, container, time and line', async () => {
    const r = await runCli(['logs', ...base(), 'deploy/web', '--tail', '3', '-o', 'json']);
    expect(r.code).toBe(0);
    const objs = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(objs.length).toBeGreaterThan(0);
    expect(objs.length).toBeLessThanOrEqual(6);
    for (const o of objs) {
      expectMatchesSchema(o, 'logs-line');
      expect(Object.keys(o)).toEqual(['context', 'namespace', 'pod', 'container', 'time', 'line']);
      expect(o).toMatchObject({ context: W1, namespace: NS, container: 'app' });
      expect(Number.isNaN(Date.parse(o.time!))).toBe(false);
    }
  });

  it('works with the read-only user', async () => {
    const r = await runCli(['logs', '--kubeconfig', sandbox().readOnlyKubeconfig, '--context', W1, '-n', NS, 'deploy/web', '--tail', '1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${W1}/web-`));
  });

  it('ends cleanly when its reader closes the pipe', async () => {
    // The pipeline's status is head's; fleetdeck must end too, or the shell never returns.
    const sh = spawn('sh', ['-c', `"${process.execPath}" "${CLI}" logs ${base().join(' ')} -f deploy/web | head -2 >/dev/null`], {
      env: { ...process.env, CI: 'true' },
      stdio: 'ignore',
      detached: true,
    });
    const closed = new Promise<number | null>((resolve) => sh.on('close', resolve));
    try {
      await eventually('the pipeline to end', () => sh.exitCode !== null || sh.signalCode !== null, 90_000);
      expect(await closed).toBe(0);
    } finally {
      // Never leave the pipeline behind a failed test.
      if (sh.exitCode === null && sh.pid) process.kill(-sh.pid, 'SIGKILL');
    }
  });
});

describe('fleetdeck logs: following and restarts', () => {
  it('-f: a pod created while following joins', async () => {
    await apps.createNamespacedDeployment({ namespace: NS, body: deployment('join', 1) });
    const [first] = await runningPods('join', 1);
    const cli = startCli(['logs', ...base(), '-f', '-l', 'app=join']);
    try {
      await eventually('a line of the first pod', () => cli.find(0, (t) => t.startsWith(`${W1}/${first}/app `)), 60_000);
      await apps.patchNamespacedDeploymentScale(
        { name: 'join', namespace: NS, body: { spec: { replicas: 2 } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      const pods = await runningPods('join', 2);
      const second = pods.find((p) => p !== first)!;
      await eventually('a line of the new pod', () => cli.find(0, (t) => t.startsWith(`${W1}/${second}/app `)), 60_000);
    } finally {
      await stopCli(cli);
    }
    expect((await cli.done).code).toBe(130);
  });

  it('--previous: the crashed container’s last instance; on a container that never restarted, the API’s message', async () => {
    await apps.createNamespacedDeployment({
      namespace: NS,
      body: deployment('crash', 1, { 'sandbox.fleetdeck.io/fault': 'CrashLoopBackOff', 'sandbox.fleetdeck.io/log-rate': '5' }),
    });
    const pod = await eventually(
      'a restarted crash pod',
      async () => {
        const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: 'app=crash' });
        return pods.items.find((p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) > 0)?.metadata?.name;
      },
      90_000,
      500,
    );
    const prev = await runCli(['logs', ...base(), `pod/${pod}`, '--previous']);
    expect(prev.stderr).toBe('');
    expect(prev.code).toBe(0);
    const [healthy] = await runningPods('web', 2);
    const never = await runCli(['logs', ...base(), `pod/${healthy}`, '--previous']);
    expect(never.code).toBe(1);
    const lines = never.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^fleetdeck: ${W1}/${healthy}/app: .*previous`));
  });
});
