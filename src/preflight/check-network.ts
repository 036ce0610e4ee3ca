/** Checks of the network a node needs (pure): ports 53, 6443, 2379-2380 and 10250; the API server and its clock. */
import type { CheckItem } from '../checklist/checklist.js';
import type { ApiServerFact } from '../kube/api/server-probe.js';
import { isUnknown, type SocketEntry, type Unknown } from './facts.js';
import { row } from './row.js';

export const REQUIRED_PORTS = [6443, 2379, 2380, 10250] as const;
export const SKEW_WARN_MS = 1_000;
export const SKEW_FAIL_MS = 30_000;

const LOOPBACK = (a: string) => a.startsWith('127.') || a === '::1' || a.startsWith('::ffff:127.');

function owner(s: SocketEntry): string {
  return s.process ? `${s.process.name} (pid ${s.process.pid})` : 'unknown process';
}

function where(s: SocketEntry): string {
  const addr = s.ipv6 ? `[${s.address}]` : s.address;
  return `${s.proto}${s.ipv6 ? '6' : ''} ${addr}:${s.port}`;
}

/** Sockets bound on a port: TCP listeners, and UDP sockets not connected to a peer. */
export function boundOn(sockets: SocketEntry[], port: number, proto?: 'tcp' | 'udp'): SocketEntry[] {
  return sockets.filter(
    (s) => s.port === port && (!proto || s.proto === proto) && (s.proto === 'udp' ? s.state === '07' : s.state === 'LISTEN'),
  );
}

/** "systemd-resolve (pid 512) on udp 127.0.0.53:53, tcp 127.0.0.53:53; …" grouped per process. */
function describeUsers(list: SocketEntry[]): string {
  const by = new Map<string, string[]>();
  for (const s of list) by.set(owner(s), [...(by.get(owner(s)) ?? []), where(s)]);
  return [...by].map(([who, at]) => `${who} on ${at.join(', ')}`).join('; ');
}

export function checkDnsPort(sockets: SocketEntry[] | Unknown): CheckItem {
  const label = 'DNS port 53';
  if (isUnknown(sockets))
    return row('dns-port', label, {
      state: 'warn',
      detail: `not checked: ${sockets.unknown}`,
      hint: 'check it yourself: ss -lntup sport = :53',
    });
  const users = boundOn(sockets, 53);
  if (users.length === 0) return row('dns-port', label, { state: 'ok', detail: 'free' });
  const detail = `in use by ${describeUsers(users)}`;
  if (users.every((s) => LOOPBACK(s.address))) {
    return row('dns-port', label, {
      state: 'warn',
      detail,
      hint: 'only on loopback: a node-local resolver (e.g. systemd-resolved) is fine unless the cluster DNS must bind port 53 on this host',
    });
  }
  return row('dns-port', label, {
    state: 'fail',
    detail,
    hint: 'stop or reconfigure that DNS server (port 53 on all or external addresses), or use another host',
  });
}

export function checkRequiredPorts(sockets: SocketEntry[] | Unknown): CheckItem {
  const label = `Ports ${REQUIRED_PORTS.join(', ')} free`;
  if (isUnknown(sockets))
    return row('ports', label, {
      state: 'warn',
      detail: `not checked: ${sockets.unknown}`,
      hint: `check it yourself: ss -lnt '( sport = :6443 or sport = :2379 or sport = :2380 or sport = :10250 )'`,
    });
  const users = REQUIRED_PORTS.flatMap((p) => boundOn(sockets, p, 'tcp'));
  if (users.length === 0) return row('ports', label, { state: 'ok', detail: 'free' });
  return row('ports', label, {
    state: 'fail',
    detail: `in use: ${describeUsers(users)}`,
    hint: 'the API server (6443), etcd (2379-2380) and the kubelet (10250) need them: stop what listens there (a previous installation? kubeadm reset)',
  });
}

export function checkApiServer(api: ApiServerFact | Unknown | undefined): CheckItem {
  const label = 'API server reachable (TCP, TLS)';
  if (api === undefined)
    return row('api-server', label, {
      state: 'info',
      detail: 'not checked: no --server and no kube context',
      hint: 'give --server https://HOST:6443 or --context C',
    });
  if (isUnknown(api))
    return row('api-server', label, {
      state: 'fail',
      detail: api.unknown,
      hint: 'give --server https://HOST:6443 or a --context whose server is an https URL',
    });
  if (api.error) {
    return row('api-server', label, {
      state: 'fail',
      detail: `${api.url} (${api.source}): ${api.error}`,
      hint: 'check the address, routes and firewalls between this host and the API server (port reachable over TCP, TLS answered)',
    });
  }
  const times = `TCP ${api.tcpMs ?? '?'} ms, TLS ${api.tlsMs ?? '?'} ms`;
  if (api.certVerified === false && api.source !== '--server') {
    return row('api-server', label, {
      state: 'warn',
      detail: `${api.url}: ${times}; certificate not trusted by the context's CA: ${api.certError ?? 'unknown reason'}`,
      hint: 'the kubeconfig’s certificate-authority-data may not match this server',
    });
  }
  const note = api.certVerified === false ? ` (certificate not verified: ${api.certError ?? 'no CA given'})` : '';
  return row('api-server', label, { state: 'ok', detail: `${api.url}: ${times}${note}` });
}

/** Skew of the local clock against the API server's: positive when the server is ahead. */
export function clockSkewMs(clock: NonNullable<ApiServerFact['clock']>): number {
  // The Date header has whole seconds: the server's time is on average half a second later.
  return clock.serverDate + 500 - clock.localMidpoint;
}

export function checkClockSkew(api: ApiServerFact | Unknown | undefined): CheckItem {
  const label = 'Clock skew against the API server';
  if (api === undefined || isUnknown(api)) return row('clock-skew', label, { state: 'info', detail: 'not measured: no API server' });
  if (!api.clock) {
    return row('clock-skew', label, {
      state: 'warn',
      detail: `not measured: ${api.clockError ?? api.error ?? 'no Date header'}`,
      hint: 'compare `date -u` here and on a control-plane node',
    });
  }
  const skew = clockSkewMs(api.clock);
  const abs = Math.abs(skew);
  const detail = `${(skew / 1000).toFixed(1)} s (this host is ${skew > 0 ? 'behind' : 'ahead'}; from the Date header of ${api.clock.via})`;
  if (abs > SKEW_FAIL_MS)
    return row('clock-skew', label, {
      state: 'fail',
      detail,
      hint: 'more than 30 s: certificates and tokens will fail; synchronise both clocks with NTP',
    });
  if (abs > SKEW_WARN_MS)
    return row('clock-skew', label, { state: 'warn', detail, hint: 'more than 1 s: synchronise both clocks with NTP' });
  return row('clock-skew', label, { state: 'ok', detail: `${(skew / 1000).toFixed(1)} s` });
}
