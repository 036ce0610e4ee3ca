import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { authorityFromPem, issueCertificate } from '../../../src/kube/certs/pki.js';
import { readAuditEvents } from '../../../src/sandbox/audit.js';
import { readState } from '../../../src/sandbox/state.js';
import { eventually, runCli } from '../../helpers/cli/cli.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

/*
 * Every kind of credential a kubeconfig user can have, against the sandbox's kind-workload-2:
 * those that load reach the API server as their user; those that cannot be loaded are
 * "credentials" (never sent, never anonymous), in `status` and in a single-context command.
 */

const CONTEXT = 'kind-workload-2';
const SA_USER = 'system:serviceaccount:default:default';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';

let dir: string;
let kubeconfig: string;
let auditLog: string;

interface ContextJson {
  name: string;
  reachable: boolean;
  reachability: string;
  error: string | null;
  nodes: { total: number; forbidden: string | null } | null;
}

/** A token of the default ServiceAccount of `default`, from the TokenRequest API (nothing is stored in the cluster). */
async function serviceAccountToken(): Promise<string> {
  const admin = configForContext(loadKubeconfig({ kubeconfig: sandbox().kubeconfig }).config, CONTEXT);
  const core = makeClient(admin, CoreV1Api);
  const tr = await eventually('the default ServiceAccount', () =>
    core.createNamespacedServiceAccountToken({
      name: 'default',
      namespace: 'default',
      body: { spec: { audiences: [], expirationSeconds: 600 } },
    }),
  );
  const token = tr.status?.token;
  if (!token) throw new Error('the TokenRequest returned no token');
  return token;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-creds-int-'));
  const sandboxDir = sandbox().dir;
  const state = readState(sandboxDir);
  const entry = state?.clusters.find((c) => c.context === CONTEXT);
  if (!entry) throw new Error(`no ${CONTEXT} in the sandbox at ${sandboxDir}`);
  auditLog = entry.auditLog;
  const { config } = loadKubeconfig({ kubeconfig: sandbox().kubeconfig });
  const cluster = config.getCluster(CONTEXT)!;
  const admin = config.getUser(`${CONTEXT}-admin`)!;
  const file = (name: string, data: string) => {
    fs.writeFileSync(path.join(dir, name), data, { mode: 0o600 });
    return path.join(dir, name);
  };

  const token = await serviceAccountToken();
  file('sa-token', token);
  file(
    'credential.json',
    JSON.stringify({
      apiVersion: V1BETA1,
      kind: 'ExecCredential',
      status: {
        clientCertificateData: Buffer.from(admin.certData!, 'base64').toString(),
        clientKeyData: Buffer.from(admin.keyData!, 'base64').toString(),
      },
    }),
  );
  // A client certificate of the cluster's own CA that expired yesterday; one whose key file is gone.
  const pki = path.join(path.dirname(auditLog), 'pki');
  const ca = authorityFromPem(fs.readFileSync(path.join(pki, 'ca.crt'), 'utf8'), fs.readFileSync(path.join(pki, 'ca.key'), 'utf8'));
  const expired = await issueCertificate(ca, {
    commonName: 'fd-expired',
    usage: 'client',
    days: 1,
    now: new Date(Date.now() - 2 * 86_400_000),
  });
  file('expired.crt', expired.certPem);
  file('expired.key', expired.keyPem);
  file('lonely.crt', Buffer.from(admin.certData!, 'base64').toString());

  const users: Record<string, Record<string, unknown>> = {
    'token-file': { tokenFile: 'sa-token' },
    token: { token },
    'missing-token-file': { tokenFile: 'gone-token' },
    'missing-plugin': {
      exec: { apiVersion: V1BETA1, command: 'fd-no-such-plugin', installHint: 'install it with: apt install fd-plugin' },
    },
    'plugin-env': {
      exec: {
        apiVersion: V1BETA1,
        command: 'sh',
        args: ['-c', 'cat "$FD_CREDENTIAL"'],
        env: [{ name: 'FD_CREDENTIAL', value: path.join(dir, 'credential.json') }],
      },
    },
    'plugin-always': { exec: { apiVersion: V1BETA1, command: 'sh', args: ['-c', 'cat "$FD_CREDENTIAL"'], interactiveMode: 'Always' } },
    'auth-provider': { 'auth-provider': { name: 'openstack', config: {} } },
    'expired-cert': { 'client-certificate': 'expired.crt', 'client-key': 'expired.key' },
    'missing-key': { 'client-certificate': 'lonely.crt', 'client-key': 'gone.key' },
  };
  kubeconfig = file(
    'kubeconfig',
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'w2', cluster: { server: cluster.server, 'certificate-authority-data': cluster.caData } }],
      users: Object.entries(users).map(([name, user]) => ({ name, user })),
      contexts: Object.keys(users).map((name) => ({ name, context: { cluster: 'w2', user: name } })),
      'current-context': 'missing-token-file',
    }),
  );
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('credentials of every kind, on a real API server', () => {
  it('status: what loads is reachable as its user, what cannot is "credentials" and never reaches the server anonymously', async () => {
    const since = new Date(Date.now() - 1000);
    const res = await runCli(['status', '-o', 'json', '--kubeconfig', kubeconfig]);
    expect(res.code).toBe(1);
    const contexts = Object.fromEntries((JSON.parse(res.stdout) as { contexts: ContextJson[] }).contexts.map((c) => [c.name, c]));

    // A token, from a file or inline, is the ServiceAccount's: reachable, its nodes forbidden to it
    for (const name of ['token-file', 'token']) {
      expect(contexts[name]).toMatchObject({ reachable: true, reachability: 'reachable', error: null });
      expect(contexts[name]?.nodes?.forbidden).toContain(SA_USER);
    }
    // An exec plugin with its env: the admin's certificate it hands out
    expect(contexts['plugin-env']).toMatchObject({ reachable: true, reachability: 'reachable' });
    expect(contexts['plugin-env']?.nodes?.total).toBeGreaterThan(0);

    const failed = (name: string) => {
      expect(contexts[name]).toMatchObject({ reachable: false, reachability: 'credentials', nodes: null });
      return contexts[name]?.error;
    };
    expect(failed('missing-token-file')).toBe(
      `cannot read the token file of user "missing-token-file": open ${path.join(dir, 'gone-token')}: no such file or directory`,
    );
    expect(failed('missing-plugin')).toBe(
      'exec plugin of user "missing-plugin": getting credentials: exec: executable fd-no-such-plugin not found; it looks like you are trying to use a client-go credential plugin that is not installed (install it with: apt install fd-plugin)',
    );
    expect(failed('plugin-always')).toBe(
      'exec plugin sh of user "plugin-always" (interactiveMode Always) cannot run: exec plugin cannot support interactive mode: standard input is not a terminal',
    );
    expect(failed('auth-provider')).toBe(
      'auth-provider "openstack" of user "auth-provider" is not supported: no Auth Provider found for name "openstack"',
    );
    expect(failed('expired-cert')).toMatch(/^client certificate of user "expired-cert" expired on \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(failed('missing-key')).toBe(
      `cannot read the client key of user "missing-key": open ${path.join(dir, 'gone.key')}: no such file or directory`,
    );

    // The ServiceAccount's requests are in the audit log, so it covers the run: no anonymous request among them
    await eventually('the token users in the audit log', () => readAuditEvents(auditLog, { since, user: SA_USER }).length > 0);
    expect(readAuditEvents(auditLog, { since, user: 'system:anonymous' }).map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
    // And no request with the expired certificate
    expect(readAuditEvents(auditLog, { since, user: 'fd-expired' })).toEqual([]);
  });

  it('status text says "credentials" with a hint about the kubeconfig user, not the API server', async () => {
    const res = await runCli(['status', '--kubeconfig', kubeconfig, '--context', 'missing-token-file,token-file']);
    expect(res.code).toBe(1);
    const lines = res.stdout.split('\n');
    const i = lines.findIndex((l) => l.startsWith('* Context missing-token-file '));
    expect(lines[i]).toContain('... credentials: cannot read the token file of user "missing-token-file": open ');
    expect(lines[i + 1]).toMatch(/^ {2}fix user "missing-token-file" of context missing-token-file in the kubeconfig/);
    expect(res.stdout).toMatch(/^\* Context token-file\.\.\. reachable, v[\d.]+, \d+ ms, nodes forbidden/m);
    expect(res.stdout).not.toContain('API server is up');
  });

  it('a single-context command stops before any request: one line, exit 2', async () => {
    const res = await runCli(['storage', 'estimate', '--context', 'expired-cert', '--kubeconfig', kubeconfig]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /^fleetdeck: context expired-cert: client certificate of user "expired-cert" expired on \S+; fix user "expired-cert" of context expired-cert in the kubeconfig\n$/,
    );
  });
});
