/**
 * The sandbox runs a Nova control plane for real: etcd and kube-apiserver as processes behind the
 * load balancer (by address and by hostname), a client that trusts another CA, a process that
 * crashes, and deleting the namespace stopping every process.
 */
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { CoreV1Api, VersionApi } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { describeError, makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { createAuthority } from '../../../src/kube/certs/pki.js';
import { isOurs } from '../../../src/sandbox/state.js';
import { eventually } from '../../helpers/cli/cli.js';
import { ETCD_IMAGE, type controlPlanePki } from '../../helpers/sandbox/control-plane.js';
import { sandboxContainerLog } from '../../helpers/sandbox/container-logs.js';
import {
  clientConfig,
  core,
  deleteNamespace,
  deployControlPlane,
  lbHostname,
  podPids,
  readyPod,
  sandboxDir,
  warnings,
} from './real-control-plane.js';

const NS = 'cp-real';
const LB_HOSTNAME = lbHostname(NS);

const seenPids: number[] = [];
let lbIP = '';
let server = '';
let pki: Awaited<ReturnType<typeof controlPlanePki>>;

describe('the sandbox runs a Nova control plane for real', () => {
  afterAll(async () => {
    // Whatever a failed test left behind.
    await deleteNamespace(core, NS);
  });

  it('runs etcd and kube-apiserver pods as processes, reachable through the load balancer with the CA verified', async () => {
    ({ lbIP, server, pki } = await deployControlPlane(NS));

    const etcd = await readyPod(core, NS, 'app=etcd');
    const apiserver = await readyPod(core, NS, 'component=apiserver');
    // Pod IPs stay what Endpoints accept; the processes listen on their own loopback addresses.
    expect(etcd.status?.podIP).not.toMatch(/^127\./);
    expect(apiserver.status?.containerStatuses?.[0]).toMatchObject({ ready: true, restartCount: 0 });
    // Its container log (through the API server and the node's kubelet endpoint) is etcd's own output.
    const etcdLog = await eventually(
      'etcd log',
      async () => {
        const text = await core.readNamespacedPodLog({ name: etcd.metadata!.name!, namespace: NS, container: 'etcd' });
        return /etcdserver|embed|"level"/.test(text) ? text : undefined;
      },
      30_000,
      500,
    );
    expect(etcdLog).not.toMatch(/sandbox:/);

    const admin = clientConfig(server, pki.ca.certPem, pki.admin);
    const version = await eventually('/version through the load balancer', () => makeClient(admin, VersionApi).getCode(), 60_000, 500);
    expect(version.gitVersion).toBe('v1.20.2');
    // `default` appears a moment after the API server starts serving.
    const namespaces = await eventually(
      'namespaces of the new control plane',
      async () => {
        const names = (await makeClient(admin, CoreV1Api).listNamespace()).items.map((n) => n.metadata?.name);
        return names.includes('default') && names.includes('kube-system') ? names : undefined;
      },
      30_000,
      500,
    );
    expect(namespaces).toEqual(expect.arrayContaining(['default', 'kube-system']));

    // Recorded in the state, so `sandbox down` stops them even without the supervisor.
    const pids = podPids('kind-cp', NS);
    expect(
      Object.keys(pids)
        .map((k) => k.split('/')[2]?.split('@')[0])
        .sort(),
    ).toEqual(['etcd', 'kube-apiserver']);
    for (const pid of Object.values(pids)) {
      expect(isOurs(pid, sandboxDir)).toBe(true);
      seenPids.push(pid);
    }
    // Names resolve for the processes as inside a cluster.
    const hosts = fs.readFileSync(path.join(sandboxDir, 'clusters', 'cp', 'hosts'), 'utf8');
    expect(hosts).toMatch(new RegExp(`^127\\.4\\.\\S+\\t.*\\betcd-0\\.etcd\\.${NS}\\.svc\\.cluster\\.local\\b`, 'm'));
  });

  it('a hostname ingress resolves, for the processes, to an address that forwards the same way', async () => {
    const hostsFile = path.join(sandboxDir, 'clusters', 'cp', 'hosts');
    const vip = await eventually('hostname in the hosts file', () => {
      const line = fs
        .readFileSync(hostsFile, 'utf8')
        .split('\n')
        .find((l) => l.endsWith(`\t${LB_HOSTNAME}`));
      return line?.split('\t')[0];
    });
    // Every cluster's processes resolve it (a load balancer's name is public).
    expect(fs.readFileSync(path.join(sandboxDir, 'clusters', 'workload-1', 'hosts'), 'utf8')).toContain(`${vip}\t${LB_HOSTNAME}\n`);
    // The machine's own resolver does not know it: connect to the address, verify the name.
    const body = await eventually(
      '/version through the hostname address',
      () =>
        new Promise<string>((resolve, reject) => {
          const req = https.get(
            {
              host: vip,
              port: 443,
              path: '/version',
              servername: LB_HOSTNAME,
              ca: pki.ca.certPem,
              cert: pki.admin.certPem,
              key: pki.admin.keyPem,
              timeout: 5000,
            },
            (res) => {
              let text = '';
              res.on('data', (d: Buffer) => (text += d.toString()));
              res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`HTTP ${res.statusCode}`))));
            },
          );
          req.on('error', reject);
        }),
      30_000,
      500,
    );
    expect(JSON.parse(body)).toMatchObject({ gitVersion: 'v1.20.2' });
  });

  it('a client trusting another CA fails with a TLS error', async () => {
    const foreign = await createAuthority('not-nova-ca', 1);
    const kc = clientConfig(server, foreign.certPem, pki.admin);
    const err = await makeClient(kc, VersionApi)
      .getCode()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeDefined();
    expect(describeError(err)).toMatch(/^TLS: /);
  });

  it('a process that exits is restarted with back-off and reported as CrashLoopBackOff', async () => {
    await core.createNamespacedPod({
      namespace: NS,
      body: {
        metadata: { name: 'crashing-etcd', labels: { app: 'crashing' } },
        spec: { containers: [{ name: 'etcd', image: ETCD_IMAGE, command: ['etcd'], args: ['--no-such-flag'] }] },
      },
    });
    const status = await eventually(
      'CrashLoopBackOff',
      async () => {
        const p = await core.readNamespacedPod({ name: 'crashing-etcd', namespace: NS });
        const c = p.status?.containerStatuses?.[0];
        return c?.state?.waiting?.reason === 'CrashLoopBackOff' ? c : undefined;
      },
      60_000,
      500,
    );
    expect(status.restartCount).toBeGreaterThanOrEqual(1);
    expect(status.lastState?.terminated?.exitCode).not.toBe(0);
    expect(await warnings(core, NS, 'BackOff')).not.toEqual([]);
    const log = sandboxContainerLog(path.join(sandboxDir, 'clusters', 'cp'), NS, 'crashing-etcd', 'etcd');
    expect(log).toMatch(/no-such-flag/);
  });

  it('deleting the namespaces stops every process and the forwarding', async () => {
    for (const pid of Object.values(podPids('kind-cp', NS))) seenPids.push(pid);
    expect(seenPids.length).toBeGreaterThanOrEqual(3);
    await deleteNamespace(core, NS);
    await eventually(
      'namespace gone',
      () =>
        core.readNamespace({ name: NS }).then(
          () => false,
          (e: unknown) => statusCode(e) === 404,
        ),
      150_000,
      500,
    );
    await eventually('processes gone', () => seenPids.every((p) => !isOurs(p, sandboxDir)), 30_000, 200);
    expect(podPids('kind-cp', NS)).toEqual({});
    const refused = await eventually(
      'load balancer closed',
      () =>
        new Promise<boolean>((resolve) => {
          const s = net.connect({ host: lbIP, port: 443 });
          s.once('connect', () => {
            s.destroy();
            resolve(false);
          });
          s.once('error', () => resolve(true));
        }),
    );
    expect(refused).toBe(true);
  });
});
