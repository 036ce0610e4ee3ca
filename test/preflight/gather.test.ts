import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckItem } from '../../src/checklist/checklist.js';
import { hasFailures, preflightChecks } from '../../src/preflight/checks.js';
import { gatherFacts } from '../../src/preflight/gather.js';
import type { CommandRunner } from '../../src/preflight/read-commands.js';

const FIX = path.resolve('test/fixtures/preflight');
const opts = { minCpus: 2, minMemoryGB: 2 };
const byId = (items: CheckItem[], id: string) => items.find((i) => i.id === id)!;

describe('gatherFacts over fixture roots', () => {
  const states = async (name: string, o = opts) => {
    const items = preflightChecks(await gatherFacts({ root: path.join(FIX, name) }), o);
    return Object.fromEntries(items.map((i) => [i.id, i.state]));
  };

  it('clean: every row ok, API server not checked', async () => {
    const items = preflightChecks(await gatherFacts({ root: path.join(FIX, 'clean') }), opts);
    expect(hasFailures(items)).toBe(false);
    expect(items.filter((i) => i.state !== 'ok').map((i) => i.id)).toEqual(['api-server', 'clock-skew']);
  });
  it('previous-install: kubelet, dirs, ports with their processes, DNS by dnsmasq, swap, firewalld, ip_forward', async () => {
    const facts = await gatherFacts({ root: path.join(FIX, 'previous-install') });
    const items = preflightChecks(facts, opts);
    expect(byId(items, 'previous-install').state).toBe('fail');
    expect(byId(items, 'previous-install').detail).toContain('usr/bin/kubelet');
    expect(byId(items, 'previous-install').detail).toContain('var/lib/etcd');
    expect(byId(items, 'ports').detail).toBe(
      'in use: kube-apiserver (pid 300) on tcp 0.0.0.0:6443; etcd (pid 301) on tcp 127.0.0.1:2379, tcp 127.0.0.1:2380; kubelet (pid 302) on tcp6 [::]:10250',
    );
    expect(byId(items, 'dns-port')).toMatchObject({ state: 'fail', detail: 'in use by dnsmasq (pid 303) on udp 0.0.0.0:53' });
    expect(byId(items, 'swap').state).toBe('warn');
    expect(byId(items, 'firewalld').state).toBe('warn');
    expect(byId(items, 'ip-forward').state).toBe('fail');
  });
  it('bad-hostname: hostname, OS, CPUs and memory; the minimums follow the options', async () => {
    const s = await states('bad-hostname');
    expect(s).toMatchObject({ hostname: 'fail', os: 'fail', cpus: 'fail', memory: 'fail' });
    expect(await states('bad-hostname', { minCpus: 1, minMemoryGB: 1 })).toMatchObject({ cpus: 'ok', memory: 'ok' });
  });
  it('rotate: rotate, resolver on loopback, fapolicyd, br_netfilter, NTP', async () => {
    const items = preflightChecks(await gatherFacts({ root: path.join(FIX, 'rotate') }), opts);
    expect(byId(items, 'resolv-rotate').state).toBe('fail');
    expect(byId(items, 'dns-port')).toMatchObject({
      state: 'warn',
      detail: 'in use by systemd-resolve (pid 511) on tcp 127.0.0.53:53, udp 127.0.0.53:53, udp6 [::1]:53',
    });
    expect(byId(items, 'fapolicyd').state).toBe('fail');
    expect(byId(items, 'br-netfilter').state).toBe('fail');
    expect(byId(items, 'time-sync').state).toBe('warn');
  });
  it('an injected runner answers timedatectl and systemctl', async () => {
    const calls: string[] = [];
    const runner: CommandRunner = async (cmd, args) => {
      calls.push(`${cmd} ${args.join(' ')}`);
      if (cmd === 'timedatectl') return { code: 0, stdout: 'NTP=yes\nNTPSynchronized=yes\n', stderr: '' };
      if (cmd === 'systemctl')
        return { code: args[1] === 'firewalld' ? 0 : 3, stdout: args[1] === 'firewalld' ? 'active\n' : 'inactive\n', stderr: '' };
      return undefined;
    };
    const f = await gatherFacts({ root: path.join(FIX, 'rotate'), runner });
    expect(f.timeSync).toEqual({ source: 'timedatectl', synchronized: true });
    expect(f.services.firewalld).toEqual({ state: 'active', source: 'systemctl is-active' });
    expect(f.services.fapolicyd).toEqual({ state: 'inactive', source: 'systemctl is-active' });
    expect(calls).toContain('systemctl is-active fapolicyd');
    const noSystemd: CommandRunner = async (cmd) =>
      cmd === 'chronyc' ? { code: 0, stdout: 'Leap status     : Not synchronised\n', stderr: '' } : undefined;
    const g = await gatherFacts({ root: path.join(FIX, 'clean'), runner: noSystemd });
    expect(g.timeSync).toMatchObject({ source: 'chronyc tracking', synchronized: false });
    expect(g.services.firewalld).toEqual({ unknown: 'systemctl is not available' });
  });
});
