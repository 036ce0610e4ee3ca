import https from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { createAuthority, issueCertificate } from '../../src/kube/pki.js';
import {
  checkApiServer,
  checkBrNetfilter,
  checkClockSkew,
  checkCpus,
  checkDnsPort,
  checkHostname,
  checkIpForward,
  checkMemory,
  checkOs,
  checkPreviousInstall,
  checkRequiredPorts,
  checkResolvRotate,
  checkService,
  checkSwap,
  checkTimeSync,
  hasFailures,
  nodeNameProblem,
  preflightChecks,
  type ApiServerFact,
  type SocketEntry,
} from '../../src/preflight/checks.js';
import {
  decodeProcAddress,
  gatherFacts,
  parseChronyTracking,
  parseOsRelease,
  parseProcNet,
  parseTimedatectl,
  probeApiServer,
  type CommandRunner,
} from '../../src/preflight/gather.js';
import { supportedOs } from '../../src/preflight/supported-os.js';
import type { CheckItem } from '../../src/checklist/checklist.js';

const FIX = path.resolve('test/fixtures/preflight');
const opts = { minCpus: 2, minMemoryGB: 2 };
const byId = (items: CheckItem[], id: string) => items.find((i) => i.id === id)!;
const sock = (p: Partial<SocketEntry>): SocketEntry => ({ proto: 'tcp', ipv6: false, address: '0.0.0.0', port: 1, state: 'LISTEN', inode: 1, ...p });

describe('parsers', () => {
  it('os-release, proc addresses, proc/net lines', () => {
    expect(parseOsRelease('ID="rocky"\nVERSION_ID="9.4"\nPRETTY_NAME="Rocky Linux 9.4"\n')).toEqual({ id: 'rocky', versionId: '9.4', prettyName: 'Rocky Linux 9.4' });
    expect(decodeProcAddress('3500007F')).toBe('127.0.0.53');
    expect(decodeProcAddress('00000000000000000000000000000000')).toBe('::');
    expect(decodeProcAddress('00000000000000000000000001000000')).toBe('::1');
    expect(decodeProcAddress('0000000000000000FFFF00000100007F')).toBe('::ffff:127.0.0.1');
    expect(decodeProcAddress('B80D0120000000000000000001000000')).toBe('2001:db8::1');
    const [s] = parseProcNet('  sl header\n   0: 00000000:192B 00000000:0000 0A 00000000:00000000 00:00000000 00000000 0 0 4242 1\n', 'tcp', false);
    expect(s).toEqual({ proto: 'tcp', ipv6: false, address: '0.0.0.0', port: 6443, state: 'LISTEN', inode: 4242 });
  });
  it('timedatectl and chronyc', () => {
    expect(parseTimedatectl('NTP=yes\nNTPSynchronized=yes\n')).toBe(true);
    expect(parseTimedatectl('NTPSynchronized=no\n')).toBe(false);
    expect(parseTimedatectl('')).toBeUndefined();
    expect(parseChronyTracking('Leap status     : Normal\nSystem time     : 0.000012 seconds fast of NTP time\n')).toEqual({ synchronized: true, detail: 'leap status Normal, 0.000012 seconds fast of NTP time' });
    expect(parseChronyTracking('Leap status     : Not synchronised\n')?.synchronized).toBe(false);
  });
  it('supported OS list', () => {
    expect(supportedOs('ubuntu', '22.04')).toBeDefined();
    expect(supportedOs('rhel', '9.4')).toBeDefined();
    expect(supportedOs('centos', '7')).toBeUndefined();
    expect(supportedOs('ubuntu', '18.04')).toBeUndefined();
  });
});

describe('checks (pure)', () => {
  it('OS', () => {
    expect(checkOs({ id: 'debian', versionId: '12', prettyName: 'Debian 12' })).toMatchObject({ state: 'ok', detail: 'Debian 12' });
    expect(checkOs({ id: 'centos', versionId: '7', prettyName: 'CentOS Linux 7' })).toMatchObject({ state: 'fail', detail: 'CentOS Linux 7 is not supported' });
    expect(checkOs({ unknown: 'no /etc/os-release' }).state).toBe('fail');
  });
  it('DNS port 53: free, loopback only (warn), external (fail), unknown', () => {
    expect(checkDnsPort([sock({ port: 22 })])).toMatchObject({ state: 'ok', detail: 'free' });
    const resolved = sock({ proto: 'udp', state: '07', address: '127.0.0.53', port: 53, process: { pid: 5, name: 'systemd-resolve' } });
    expect(checkDnsPort([resolved])).toMatchObject({ state: 'warn', detail: 'in use by systemd-resolve (pid 5) on udp 127.0.0.53:53' });
    expect(checkDnsPort([resolved, sock({ port: 53, address: '::', ipv6: true })])).toMatchObject({ state: 'fail', detail: 'in use by systemd-resolve (pid 5) on udp 127.0.0.53:53; unknown process on tcp6 [::]:53' });
    // A connected TCP socket to a remote port 53 is not a listener.
    expect(checkDnsPort([sock({ port: 53, state: 'ESTABLISHED' })]).state).toBe('ok');
    expect(checkDnsPort({ unknown: 'no /proc' }).state).toBe('warn');
  });
  it('required ports', () => {
    expect(checkRequiredPorts([sock({ port: 22 }), sock({ port: 6443, state: 'TIME_WAIT' })]).state).toBe('ok');
    expect(checkRequiredPorts([sock({ port: 2380, address: '127.0.0.1', process: { pid: 9, name: 'etcd' } })])).toMatchObject({ state: 'fail', detail: 'in use: etcd (pid 9) on tcp 127.0.0.1:2380' });
    expect(checkRequiredPorts([sock({ port: 10250, proto: 'udp', state: '07' })]).state).toBe('ok');
  });
  it('API server', () => {
    expect(checkApiServer(undefined).state).toBe('info');
    expect(checkApiServer({ unknown: 'not https' }).state).toBe('fail');
    const base: ApiServerFact = { url: 'https://10.0.0.1:6443', source: '--server', tcpMs: 2, tlsMs: 8 };
    expect(checkApiServer(base)).toMatchObject({ state: 'ok', detail: 'https://10.0.0.1:6443: TCP 2 ms, TLS 8 ms' });
    expect(checkApiServer({ ...base, certVerified: false, certError: 'SELF_SIGNED' }).state).toBe('ok');
    expect(checkApiServer({ ...base, source: 'context a', certVerified: false, certError: 'SELF_SIGNED' }).state).toBe('warn');
    expect(checkApiServer({ url: base.url, source: '--server', error: 'connection refused' })).toMatchObject({ state: 'fail', detail: 'https://10.0.0.1:6443 (--server): connection refused' });
  });
  it('time sync and clock skew (warn > 1 s, fail > 30 s)', () => {
    expect(checkTimeSync({ source: 'timedatectl', synchronized: true }).state).toBe('ok');
    expect(checkTimeSync({ source: 'chronyc tracking', synchronized: false }).state).toBe('warn');
    expect(checkTimeSync({ unknown: 'nothing' }).state).toBe('warn');
    const api = (skewMs: number): ApiServerFact => ({ url: 'https://x', source: '--server', clock: { serverDate: 1_000_000 + skewMs - 500, localMidpoint: 1_000_000, via: 'HEAD /version' } });
    expect(checkClockSkew(api(300))).toMatchObject({ state: 'ok', detail: '0.3 s' });
    expect(checkClockSkew(api(-5_000))).toMatchObject({ state: 'warn', detail: '-5.0 s (this host is ahead; from the Date header of HEAD /version)' });
    expect(checkClockSkew(api(45_000)).state).toBe('fail');
    expect(checkClockSkew(undefined).state).toBe('info');
    expect(checkClockSkew({ url: 'https://x', source: '--server', tcpMs: 1, tlsMs: 1, clockError: 'timed out' })).toMatchObject({ state: 'warn', detail: 'not measured: timed out' });
  });
  it('previous install', () => {
    expect(checkPreviousInstall({ found: [], empty: ['/var/lib/etcd'] })).toMatchObject({ state: 'ok', detail: 'none found (empty /var/lib/etcd ignored)' });
    expect(checkPreviousInstall({ found: ['/etc/kubernetes'] })).toMatchObject({ state: 'fail', detail: 'found /etc/kubernetes' });
  });
  it('hostname: RFC 1123 subdomain, lower case, ≤ 253', () => {
    expect(nodeNameProblem('node-1.example.com')).toBeUndefined();
    expect(nodeNameProblem('Node1')).toBe('it has upper-case letters');
    expect(nodeNameProblem('node_1')).toMatch(/characters other than/);
    expect(nodeNameProblem('-node')).toMatch(/must start and end/);
    expect(nodeNameProblem('a..b')).toMatch(/empty label/);
    expect(nodeNameProblem(`${'a'.repeat(64)}.b`)).toMatch(/longer than 63/);
    expect(nodeNameProblem(Array(60).fill('abcd').join('.'))).toMatch(/at most 253/);
    expect(nodeNameProblem('')).toBe('it is empty');
    expect(checkHostname({ name: 'n1', source: 'x' }).state).toBe('ok');
    expect(checkHostname({ name: 'N1', source: '/etc/hostname' })).toMatchObject({ state: 'fail', detail: '"N1" (/etc/hostname): it has upper-case letters' });
  });
  it('firewalld (warn) and fapolicyd (fail) when active; info when unknown', () => {
    expect(checkService('firewalld', { state: 'inactive', source: 'systemctl is-active' }).state).toBe('ok');
    expect(checkService('firewalld', { state: 'active', source: 'systemctl is-active' }).state).toBe('warn');
    expect(checkService('fapolicyd', { state: 'enabled', source: 'links' }).state).toBe('fail');
    expect(checkService('fapolicyd', { unknown: 'systemctl is not available' })).toMatchObject({ state: 'info', detail: 'not checked: systemctl is not available' });
  });
  it('resolv.conf rotate', () => {
    expect(checkResolvRotate({ text: 'options edns0\n# options rotate\n', path: '/etc/resolv.conf' }).state).toBe('ok');
    expect(checkResolvRotate({ text: 'options  ndots:2 rotate\n', path: 'r' })).toMatchObject({ state: 'fail', detail: 'r: "options  ndots:2 rotate"' });
    expect(checkResolvRotate({ text: 'search rotate.example\n', path: 'r' }).state).toBe('ok');
  });
  it('swap, CPUs, memory against minimums, br_netfilter, ip_forward', () => {
    expect(checkSwap({ active: [] }).state).toBe('ok');
    expect(checkSwap({ active: ['/swap.img'] })).toMatchObject({ state: 'warn', detail: 'on: /swap.img' });
    expect(checkCpus(2, 2).state).toBe('ok');
    expect(checkCpus(1, 2).state).toBe('fail');
    expect(checkCpus(1, 1).state).toBe('ok');
    expect(checkMemory(1.5e9, 2)).toMatchObject({ state: 'fail', detail: '1.5 GB' });
    expect(checkMemory(1.5e9, 1).state).toBe('ok');
    expect(checkBrNetfilter({ loaded: true, source: 'm' }).state).toBe('ok');
    expect(checkBrNetfilter({ loaded: false, source: 'm' }).state).toBe('fail');
    expect(checkIpForward({ value: '1', path: 'p' }).state).toBe('ok');
    expect(checkIpForward({ value: '0', path: 'p' }).state).toBe('fail');
  });
});

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
    expect(byId(items, 'ports').detail).toBe('in use: kube-apiserver (pid 300) on tcp 0.0.0.0:6443; etcd (pid 301) on tcp 127.0.0.1:2379, tcp 127.0.0.1:2380; kubelet (pid 302) on tcp6 [::]:10250');
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
    expect(byId(items, 'dns-port')).toMatchObject({ state: 'warn', detail: 'in use by systemd-resolve (pid 511) on tcp 127.0.0.53:53, udp 127.0.0.53:53, udp6 [::1]:53' });
    expect(byId(items, 'fapolicyd').state).toBe('fail');
    expect(byId(items, 'br-netfilter').state).toBe('fail');
    expect(byId(items, 'time-sync').state).toBe('warn');
  });
  it('an injected runner answers timedatectl and systemctl', async () => {
    const calls: string[] = [];
    const runner: CommandRunner = async (cmd, args) => {
      calls.push(`${cmd} ${args.join(' ')}`);
      if (cmd === 'timedatectl') return { code: 0, stdout: 'NTP=yes\nNTPSynchronized=yes\n', stderr: '' };
      if (cmd === 'systemctl') return { code: args[1] === 'firewalld' ? 0 : 3, stdout: args[1] === 'firewalld' ? 'active\n' : 'inactive\n', stderr: '' };
      return undefined;
    };
    const f = await gatherFacts({ root: path.join(FIX, 'rotate'), runner });
    expect(f.timeSync).toEqual({ source: 'timedatectl', synchronized: true });
    expect(f.services.firewalld).toEqual({ state: 'active', source: 'systemctl is-active' });
    expect(f.services.fapolicyd).toEqual({ state: 'inactive', source: 'systemctl is-active' });
    expect(calls).toContain('systemctl is-active fapolicyd');
    const noSystemd: CommandRunner = async (cmd) => (cmd === 'chronyc' ? { code: 0, stdout: 'Leap status     : Not synchronised\n', stderr: '' } : undefined);
    const g = await gatherFacts({ root: path.join(FIX, 'clean'), runner: noSystemd });
    expect(g.timeSync).toMatchObject({ source: 'chronyc tracking', synchronized: false });
    expect(g.services.firewalld).toEqual({ unknown: 'systemctl is not available' });
  });
});

describe('probeApiServer against a local TLS server', () => {
  let server: https.Server;
  let url: string;
  let caPem: string;
  beforeAll(async () => {
    const ca = await createAuthority('preflight-test-ca', 1);
    const leaf = await issueCertificate(ca, { commonName: 'localhost', hosts: ['127.0.0.1', 'localhost'], usage: 'server', days: 1 });
    caPem = ca.certPem;
    server = https.createServer({ key: leaf.keyPem, cert: leaf.certPem }, (req, res) => {
      res.setHeader('Date', new Date(Date.now() + 10_000).toUTCString());
      res.setHeader('Content-Type', 'application/json');
      res.end(req.method === 'HEAD' ? undefined : '{"gitVersion":"v1.31.0"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  }, 60_000);
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('--server URL: TCP and TLS times, an unverified certificate, the skew from HEAD', async () => {
    const f = (await probeApiServer({ url, source: '--server' })) as ApiServerFact;
    expect(f.error).toBeUndefined();
    expect(f.tcpMs).toBeGreaterThanOrEqual(0);
    expect(f.tlsMs).toBeGreaterThanOrEqual(0);
    expect(f.certVerified).toBe(false);
    expect(f.clock?.via).toBe('HEAD /version');
    expect(checkApiServer(f).state).toBe('ok');
    expect(checkClockSkew(f)).toMatchObject({ state: 'warn' });
    expect(checkClockSkew(f).detail).toMatch(/^(9\.\d|10\.\d) s \(this host is behind/);
  });
  it('a kube context: verified with its CA, the Date of GET /version through client-node', async () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: url, caData: Buffer.from(caPem).toString('base64'), skipTLSVerify: false }],
      users: [{ name: 'u', token: 'x' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
    const f = (await probeApiServer({ url, source: 'context ctx', kc })) as ApiServerFact;
    expect(f.certVerified).toBe(true);
    expect(f.clock?.via).toBe('GET /version');
    expect(checkApiServer(f).state).toBe('ok');
  });
  it('refused and not https', async () => {
    const closed = (await probeApiServer({ url: 'https://127.0.0.1:1', source: '--server' })) as ApiServerFact;
    expect(checkApiServer(closed)).toMatchObject({ state: 'fail', detail: 'https://127.0.0.1:1 (--server): connection refused' });
    expect(await probeApiServer({ url: 'http://127.0.0.1:1', source: '--server' })).toEqual({ unknown: 'http://127.0.0.1:1 (--server) is not an https URL' });
  });
});
