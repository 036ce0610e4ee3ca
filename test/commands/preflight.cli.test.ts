import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli/cli.js';
import { expectMatchesSchema } from '../helpers/schema.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-preflight-cli-'));
const env = { HOME: tmp, KUBECONFIG: '' };
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const fixture = (name: string) => path.join(ROOT, 'test', 'fixtures', 'preflight', name);
const preflight = (...args: string[]) => runCli(['preflight', ...args], { env });
const rows = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('* '));

describe('fleetdeck preflight --root FIXTURE', () => {
  it('clean: every check passes, exit 0', async () => {
    const r = await preflight('--root', fixture('clean'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = rows(r.stdout);
    expect(lines).toContain('* Operating system supported... Ubuntu 22.04.4 LTS √');
    expect(lines).toContain('* Hostname valid as a node name... node-1 √');
    expect(lines).toContain('* DNS port 53... free √');
    expect(lines.filter((l) => l.endsWith(' √'))).toHaveLength(14);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Ready to become a node');
  });

  it('previous-install: the installation, its ports and processes, exit 1', async () => {
    const r = await preflight('--root', fixture('previous-install'));
    expect(r.code).toBe(1);
    const lines = rows(r.stdout);
    expect(lines.find((l) => l.startsWith('* No previous Kubernetes installation... found kubelet binary'))).toMatch(/ ✗$/);
    expect(lines).toContain(
      '* Ports 6443, 2379, 2380, 10250 free... in use: kube-apiserver (pid 300) on tcp 0.0.0.0:6443; etcd (pid 301) on tcp 127.0.0.1:2379, tcp 127.0.0.1:2380; kubelet (pid 302) on tcp6 [::]:10250 ✗',
    );
    expect(lines).toContain('* DNS port 53... in use by dnsmasq (pid 303) on udp 0.0.0.0:53 ✗');
    expect(r.stdout).toContain('  remove it first (kubeadm reset');
  });

  it('bad-hostname: ✗ with the reason; --min-cpus/--min-memory change the minimums', async () => {
    const r = await preflight('--root', fixture('bad-hostname'), '--ascii');
    expect(r.code).toBe(1);
    expect(rows(r.stdout).find((l) => l.startsWith('* Hostname'))).toMatch(
      /"Node_01\.Example\.com" \(.*etc\/hostname\): it has upper-case letters \[xx\]$/,
    );
    const j = JSON.parse(
      (await preflight('--root', fixture('bad-hostname'), '--min-cpus', '1', '--min-memory', '1.2', '-o', 'json')).stdout,
    );
    expect(j.ok).toBe(false);
    const states = Object.fromEntries(j.checks.map((c: { id: string; state: string }) => [c.id, c.state]));
    expect(states).toMatchObject({ hostname: 'fail', os: 'fail', cpus: 'ok', memory: 'ok' });
    expect(j.checks.find((c: { id: string }) => c.id === 'memory').label).toBe('Memory (at least 1.2 GB)');
  });

  it('rotate: the options line, exit 1; json rows are CheckItems', async () => {
    const r = await preflight('--root', fixture('rotate'), '-o', 'json');
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expectMatchesSchema(j, 'preflight');
    const rotate = j.checks.find((c: { id: string }) => c.id === 'resolv-rotate');
    expect(rotate).toMatchObject({ label: 'No "options rotate" in resolv.conf', state: 'fail' });
    expect(rotate.detail).toMatch(/resolv\.conf: "options timeout:2 rotate attempts:3"$/);
    expect(rotate.hint).toMatch(/remove rotate/);
  });

  it('--server: an unreachable API server fails with the reason', async () => {
    const r = await preflight('--root', fixture('clean'), '--server', 'https://127.0.0.1:1');
    expect(r.code).toBe(1);
    expect(rows(r.stdout)).toContain('* API server reachable (TCP, TLS)... https://127.0.0.1:1 (--server): connection refused ✗');
    expect(rows(r.stdout)).toContain('* Clock skew against the API server... not measured: connection refused ‼');
  });
});

describe('fleetdeck preflight usage errors: one line, exit 2', () => {
  for (const [args, pattern] of [
    [['--min-cpus', 'two'], /^fleetdeck: --min-cpus must be a whole number greater than 0 \(got "two"\)$/],
    [['--min-memory', '0'], /^fleetdeck: --min-memory must be a number greater than 0/],
    [['--server', 'http://x:6443'], /^fleetdeck: --server http:\/\/x:6443 must be an https:\/\/ URL$/],
    [['--root', '/nonexistent-root'], /^fleetdeck: --root \/nonexistent-root is not a directory$/],
    [['-o', 'xml'], /^fleetdeck: .*'xml' is invalid.*text, json, yaml; run `fleetdeck --help` for usage$/],
    [['--context', 'nope'], /^fleetdeck: context "nope" is not in the kubeconfig/],
  ] as const) {
    it(args.join(' '), async () => {
      const r = await preflight(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(pattern);
    });
  }
});

describe('fleetdeck preflight on this machine as it is', () => {
  it('prints a checklist and exits 0 or 1, no stack trace', async () => {
    const r = await preflight();
    expect([0, 1]).toContain(r.code);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toBe(`Preflight checks of ${os.hostname()}`);
    expect(rows(r.stdout).length).toBe(16);
    expect(r.code).toBe(r.stdout.includes(' ✗') ? 1 : 0);
  });
});
