import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../helpers/cli/cli.js';

/**
 * A network fault, not an API server: something that accepts TCP connections and never says a
 * word (a hung process, a black-holing load balancer). Every command fails in seconds with one
 * line saying what timed out.
 */
describe('a server that accepts connections and never answers', () => {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-silent-'));
  const file = path.join(dir, 'kubeconfig');

  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    fs.writeFileSync(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'silent', cluster: { server: `https://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'someone', user: { token: 'not-a-secret' } }],
        contexts: [{ name: 'silent', context: { cluster: 'silent', user: 'someone' } }],
        'current-context': 'silent',
      }),
    );
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const REASON = 'no TLS handshake within 5s (TCP connect ok)';

  it('status: the context is unreachable, and why; exit 1', async () => {
    const res = await runCli(['status', '--kubeconfig', file]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(`Context silent (https://127.0.0.1:${(silent.address() as net.AddressInfo).port})... unreachable since`);
    expect(res.stdout).toContain(`(${REASON}) ✗`);
    expect(res.stderr).toBe('');
  });

  it('rollout list: one line saying what timed out; exit 1', async () => {
    const res = await runCli(['rollout', 'list', '--kubeconfig', file, '--context', 'silent']);
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toEqual([
      `fleetdeck: cannot list rollouts (ConfigMaps in kube-system labelled fleetdeck.io/rollout): ${REASON}`,
    ]);
  });

  it('storage estimate: one line saying what timed out; exit 1', async () => {
    const res = await runCli(['storage', 'estimate', '--kubeconfig', file, '--context', 'silent']);
    expect(res.code).toBe(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`context silent: the cluster cannot be read (${REASON})`);
  });

  it('--request-timeout sets the whole deadline of each request', async () => {
    const res = await runCli(['status', '--kubeconfig', file, '--request-timeout', '1s', '-o', 'json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).contexts[0].error).toBe('no TLS handshake within 1s (TCP connect ok)');
  });

  it('--request-timeout 0 means no whole deadline: the connect deadline still applies', async () => {
    const res = await runCli(['status', '--kubeconfig', file, '--request-timeout', '0', '-o', 'json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).contexts[0].error).toBe(REASON);
  });
});

describe('--request-timeout values', () => {
  it.each(['abc', '-1s', '5x', '1h-2m', ''])('"%s" is refused in one line, exit 2', async (value) => {
    const res = await runCli(['status', '--kubeconfig', '/nonexistent', '--request-timeout', value]);
    expect(res.code).toBe(2);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^fleetdeck: option '--request-timeout <duration>' argument '.*' is invalid: ".*" is not a duration for --request-timeout/,
    );
  });
});
