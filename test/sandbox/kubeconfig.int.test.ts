import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { makeClient, statusCode } from '../../src/kube/transport/client.js';
import { configForContext, contextInfos, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { runCli } from '../helpers/cli/cli.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const readOnlyKubeconfig = sandbox().readOnlyKubeconfig;
const CONTEXTS = ['kind-cp', 'kind-workload-1', 'kind-workload-2'];

const ctx = (file: string, name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig: file }).config, name);

describe('the kubeconfigs of the sandbox and their users', () => {
  it('writes a kubeconfig with the three contexts, verified TLS and no insecure skip', () => {
    const { config } = loadKubeconfig({ kubeconfig });
    expect(contextInfos(config).map((c) => c.name)).toEqual(CONTEXTS);
    for (const c of config.getClusters()) {
      expect(c.skipTLSVerify).toBeFalsy();
      expect(c.caData).toBeTruthy();
      expect(c.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    }
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
        users: [
          { name: 'plugin', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'cat', args: [credential] } } },
        ],
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
});
