import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { credentialsProblem, findExecutable, isCredentialsError } from '../../../src/kube/transport/credentials.js';
import { configForContext, kubeConfigFromString, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { createAuthority, issueCertificate, type Authority } from '../../../src/kube/certs/pki.js';

let dir: string;
let ca: Authority;
const DAY = 86_400_000;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-creds-'));
  ca = await createAuthority('creds-test-ca', 30);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A one-context KubeConfig whose user is `user`, loaded from a file in `dir` (relative paths are relative to it). */
function contextWith(user: Record<string, unknown>, cluster: Record<string, unknown> = {}): KubeConfig {
  const file = path.join(dir, `kubeconfig-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1', ...cluster } }],
      users: [{ name: 'ci-bot', user }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'ci-bot' } }],
      'current-context': 'ctx',
    }),
  );
  return configForContext(loadKubeconfig({ kubeconfig: file, env: {} }).config, 'ctx');
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const problem = (kc: KubeConfig, opts = {}) => credentialsProblem(kc, { terminal: false, ...opts })?.message;

describe('credentialsProblem: a token file', () => {
  it('names a missing tokenFile as kubectl does (relative to the kubeconfig), and nothing when it is there', () => {
    // Given a user whose tokenFile is not there
    const missing = contextWith({ tokenFile: 'no-such-token' });
    // Then the file is named, with kubectl's words, and the user
    expect(problem(missing)).toBe(
      `cannot read the token file of user "ci-bot": open ${path.join(dir, 'no-such-token')}: no such file or directory`,
    );
    // When it exists
    fs.writeFileSync(path.join(dir, 'token'), 'abc\n');
    expect(problem(contextWith({ tokenFile: 'token' }))).toBeUndefined();
    // A static token next to it is kubectl's fallback
    expect(problem(contextWith({ tokenFile: 'no-such-token', token: 'static' }))).toBeUndefined();
  });

  it('sends the token of the file, and refuses to go on without it', async () => {
    fs.writeFileSync(path.join(dir, 'token2'), 'from-the-file\n');
    const opts: { headers?: Record<string, string> } = {};
    await contextWith({ tokenFile: 'token2' }).applyToHTTPSOptions(opts);
    expect(opts.headers?.Authorization).toBe('Bearer from-the-file');
    const err = await contextWith({ tokenFile: 'no-such-token' })
      .applyToHTTPSOptions({})
      .catch((e: unknown) => e);
    expect(isCredentialsError(err)).toBe(true);
    expect((err as Error).message).toMatch(/token file of user "ci-bot": open .*no-such-token: no such file or directory/);
  });
});

describe('credentialsProblem: client certificates', () => {
  it('names a missing certificate or key file', async () => {
    const { certPem } = await issueCertificate(ca, { commonName: 'ci-bot', usage: 'client', days: 5 });
    fs.writeFileSync(path.join(dir, 'ci.crt'), certPem);
    expect(problem(contextWith({ 'client-certificate': 'ci.crt', 'client-key': 'gone.key' }))).toBe(
      `cannot read the client key of user "ci-bot": open ${path.join(dir, 'gone.key')}: no such file or directory`,
    );
    expect(problem(contextWith({ 'client-certificate': 'gone.crt', 'client-key': 'gone.key' }))).toBe(
      `cannot read the client certificate of user "ci-bot": open ${path.join(dir, 'gone.crt')}: no such file or directory`,
    );
    expect(problem(contextWith({ 'client-certificate': 'ci.crt' }))).toMatch(
      /^user "ci-bot" has a client certificate but no key: client-key-data or client-key must be specified/,
    );
  });

  it('says when the certificate expired or is not valid yet, and nothing while it is valid', async () => {
    const now = Date.now();
    const expired = await issueCertificate(ca, { commonName: 'ci-bot', usage: 'client', days: 1, now: new Date(now - 10 * DAY) });
    const future = await issueCertificate(ca, { commonName: 'ci-bot', usage: 'client', days: 5, now: new Date(now + 2 * DAY) });
    const valid = await issueCertificate(ca, { commonName: 'ci-bot', usage: 'client', days: 5 });
    const user = (m: { certPem: string; keyPem: string }) => ({
      'client-certificate-data': b64(m.certPem),
      'client-key-data': b64(m.keyPem),
    });
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(problem(contextWith(user(expired)))).toMatch(
      new RegExp(`^client certificate of user "ci-bot" expired on ${day(now - 9 * DAY)}T\\d\\d:\\d\\d:\\d\\dZ$`),
    );
    expect(problem(contextWith(user(future)))).toMatch(/^client certificate of user "ci-bot" is not valid before \d{4}-\d\d-\d\dT/);
    expect(problem(contextWith(user(valid)))).toBeUndefined();
  });

  it("names the cluster's missing certificate authority file", () => {
    expect(problem(contextWith({}, { 'certificate-authority': 'no-ca.crt' }))).toBe(
      `cannot read the certificate authority of cluster "c": open ${path.join(dir, 'no-ca.crt')}: no such file or directory`,
    );
  });
});

describe('credentialsProblem: exec plugins and auth-providers', () => {
  const exec = (more: Record<string, unknown>) => ({
    exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: process.execPath, ...more },
  });

  it("says a missing plugin in kubectl's words, with its installHint, and a hint naming it", () => {
    const err = credentialsProblem(contextWith(exec({ command: 'fd-no-such-plugin', installHint: 'Install it:\n  brew install fd' })), {
      terminal: false,
    });
    expect(err?.message).toBe(
      'exec plugin of user "ci-bot": getting credentials: exec: executable fd-no-such-plugin not found; it looks like you are trying to use a client-go credential plugin that is not installed (Install it: brew install fd)',
    );
    expect(err?.hint).toMatch(/^install fd-no-such-plugin, the credential plugin of user "ci-bot"/);
    expect(problem(contextWith(exec({})))).toBeUndefined();
  });

  it('finds a command on PATH or as a path relative to the kubeconfig', () => {
    fs.writeFileSync(path.join(dir, 'plugin.sh'), '#!/bin/sh\n', { mode: 0o755 });
    expect(findExecutable('plugin.sh', { PATH: `/nonexistent${path.delimiter}${dir}` })).toBe(path.join(dir, 'plugin.sh'));
    expect(findExecutable('plugin.sh', { PATH: '/nonexistent' })).toBeUndefined();
    expect(problem(contextWith(exec({ command: './plugin.sh' })))).toBeUndefined();
    expect(problem(contextWith(exec({ command: './not-there.sh' })))).toMatch(/executable .*not-there\.sh not found/);
  });

  it('refuses interactiveMode Always without a terminal, and wants the mode with client.authentication.k8s.io/v1', () => {
    const always = contextWith(exec({ interactiveMode: 'Always' }));
    expect(problem(always)).toMatch(
      /^exec plugin .* of user "ci-bot" \(interactiveMode Always\) cannot run: exec plugin cannot support interactive mode: standard input is not a terminal$/,
    );
    expect(problem(always, { terminal: true })).toBeUndefined();
    expect(problem(contextWith(exec({ interactiveMode: 'Never' })))).toBeUndefined();
    expect(problem(contextWith(exec({ apiVersion: 'client.authentication.k8s.io/v1' })))).toBe(
      'exec plugin of user "ci-bot": interactiveMode must be specified for ci-bot to use exec authentication plugin',
    );
  });

  it('a context naming a user the kubeconfig does not have is a configuration error (exit 2), never a run without one', () => {
    const kc = kubeConfigFromString(
      stringify({
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
        users: [],
        contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'ghost' } }],
      }),
    );
    expect(() => configForContext(kc, 'ctx')).toThrow(/context "ctx" names user "ghost", which is not in the kubeconfig/);
    expect(() => configForContext(kc, 'ctx')).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it('refuses an auth-provider client-node does not have, and takes oidc', () => {
    expect(problem(contextWith({ 'auth-provider': { name: 'openstack', config: {} } }))).toBe(
      'auth-provider "openstack" of user "ci-bot" is not supported: no Auth Provider found for name "openstack"',
    );
    expect(problem(contextWith({ 'auth-provider': { name: 'oidc', config: { 'id-token': 'x' } } }))).toBeUndefined();
  });
});
