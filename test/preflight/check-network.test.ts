import { describe, expect, it } from 'vitest';
import { checkTimeSync } from '../../src/preflight/check-host.js';
import { checkApiServer, checkClockSkew, checkDnsPort, checkRequiredPorts } from '../../src/preflight/check-network.js';
import type { SocketEntry } from '../../src/preflight/facts.js';
import type { ApiServerFact } from '../../src/kube/api/server-probe.js';

const sock = (p: Partial<SocketEntry>): SocketEntry => ({
  proto: 'tcp',
  ipv6: false,
  address: '0.0.0.0',
  port: 1,
  state: 'LISTEN',
  inode: 1,
  ...p,
});

describe('network checks (pure)', () => {
  it('DNS port 53: free, loopback only (warn), external (fail), unknown', () => {
    expect(checkDnsPort([sock({ port: 22 })])).toMatchObject({ state: 'ok', detail: 'free' });
    const resolved = sock({ proto: 'udp', state: '07', address: '127.0.0.53', port: 53, process: { pid: 5, name: 'systemd-resolve' } });
    expect(checkDnsPort([resolved])).toMatchObject({ state: 'warn', detail: 'in use by systemd-resolve (pid 5) on udp 127.0.0.53:53' });
    expect(checkDnsPort([resolved, sock({ port: 53, address: '::', ipv6: true })])).toMatchObject({
      state: 'fail',
      detail: 'in use by systemd-resolve (pid 5) on udp 127.0.0.53:53; unknown process on tcp6 [::]:53',
    });
    // A connected TCP socket to a remote port 53 is not a listener.
    expect(checkDnsPort([sock({ port: 53, state: 'ESTABLISHED' })]).state).toBe('ok');
    expect(checkDnsPort({ unknown: 'no /proc' }).state).toBe('warn');
  });
  it('required ports', () => {
    expect(checkRequiredPorts([sock({ port: 22 }), sock({ port: 6443, state: 'TIME_WAIT' })]).state).toBe('ok');
    expect(checkRequiredPorts([sock({ port: 2380, address: '127.0.0.1', process: { pid: 9, name: 'etcd' } })])).toMatchObject({
      state: 'fail',
      detail: 'in use: etcd (pid 9) on tcp 127.0.0.1:2380',
    });
    expect(checkRequiredPorts([sock({ port: 10250, proto: 'udp', state: '07' })]).state).toBe('ok');
  });
  it('API server', () => {
    expect(checkApiServer(undefined).state).toBe('info');
    expect(checkApiServer({ unknown: 'not https' }).state).toBe('fail');
    const base: ApiServerFact = { url: 'https://10.0.0.1:6443', source: '--server', tcpMs: 2, tlsMs: 8 };
    expect(checkApiServer(base)).toMatchObject({ state: 'ok', detail: 'https://10.0.0.1:6443: TCP 2 ms, TLS 8 ms' });
    expect(checkApiServer({ ...base, certVerified: false, certError: 'SELF_SIGNED' }).state).toBe('ok');
    expect(checkApiServer({ ...base, source: 'context a', certVerified: false, certError: 'SELF_SIGNED' }).state).toBe('warn');
    expect(checkApiServer({ url: base.url, source: '--server', error: 'connection refused' })).toMatchObject({
      state: 'fail',
      detail: 'https://10.0.0.1:6443 (--server): connection refused',
    });
  });
  it('time sync and clock skew (warn > 1 s, fail > 30 s)', () => {
    expect(checkTimeSync({ source: 'timedatectl', synchronized: true }).state).toBe('ok');
    expect(checkTimeSync({ source: 'chronyc tracking', synchronized: false }).state).toBe('warn');
    expect(checkTimeSync({ unknown: 'nothing' }).state).toBe('warn');
    const api = (skewMs: number): ApiServerFact => ({
      url: 'https://x',
      source: '--server',
      clock: { serverDate: 1_000_000 + skewMs - 500, localMidpoint: 1_000_000, via: 'HEAD /version' },
    });
    expect(checkClockSkew(api(300))).toMatchObject({ state: 'ok', detail: '0.3 s' });
    expect(checkClockSkew(api(-5_000))).toMatchObject({
      state: 'warn',
      detail: '-5.0 s (this host is ahead; from the Date header of HEAD /version)',
    });
    expect(checkClockSkew(api(45_000)).state).toBe('fail');
    expect(checkClockSkew(undefined).state).toBe('info');
    expect(checkClockSkew({ url: 'https://x', source: '--server', tcpMs: 1, tlsMs: 1, clockError: 'timed out' })).toMatchObject({
      state: 'warn',
      detail: 'not measured: timed out',
    });
  });
});
