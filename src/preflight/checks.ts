/**
 * `fleetdeck preflight`: pure decisions over facts gathered from a host (see gather.ts). Each
 * check turns facts into one checklist row: √ ok, ‼ warning, ✗ failure (blocks a node install),
 * • info (not checked here, and why).
 */
import type { CheckItem } from '../checklist/checklist.js';
import { describeSupportedOs, supportedOs } from './supported-os.js';

// ---------------------------------------------------------------------------------------------
// Facts

export interface OsRelease {
  id: string;
  versionId: string;
  prettyName: string;
}

/** A socket from /proc/net/{tcp,udp}{,6}. */
export interface SocketEntry {
  proto: 'tcp' | 'udp';
  ipv6: boolean;
  /** Local address as printed: "127.0.0.53", "0.0.0.0", "::", "::1". */
  address: string;
  port: number;
  /** TCP: LISTEN, ESTABLISHED…; UDP: the hex state (07 = unconnected). */
  state: string;
  inode: number;
  /** The process holding it, when /proc/<pid>/fd could be read. */
  process?: { pid: number; name: string };
}

/** Result of a check that could not be made: why. */
export interface Unknown {
  unknown: string;
}

export interface TimeSyncFact {
  /** Where the answer came from: "timedatectl", "chronyc", "systemd-timesyncd". */
  source: string;
  synchronized: boolean;
  detail?: string;
}

export interface ApiServerFact {
  url: string;
  /** "--server", or "context NAME". */
  source: string;
  /** TCP connect time. */
  tcpMs?: number;
  /** TLS handshake time after the TCP connect. */
  tlsMs?: number;
  /** The certificate verified against the CA at hand (the kubeconfig's, else the system's). */
  certVerified?: boolean;
  certError?: string;
  /** The first failure: "connection refused", "TLS: …". */
  error?: string;
  /** From the Date header of the HTTP answer, and the local time half-way through the request. */
  clock?: { serverDate: number; localMidpoint: number; via: string };
  clockError?: string;
}

export type ServiceState = 'active' | 'inactive' | 'enabled' | 'not-enabled' | 'absent' | string;

export interface PreflightFacts {
  root: string;
  os: OsRelease | Unknown;
  /** All sockets read; Unknown when no /proc/net file was readable. */
  sockets: SocketEntry[] | Unknown;
  apiServer?: ApiServerFact | Unknown;
  timeSync: TimeSyncFact | Unknown;
  /** Signs of an installation; empty directories (ignored, as kubeadm does). */
  previousInstall: { found: string[]; empty?: string[] };
  hostname: { name: string; source: string };
  /** firewalld, fapolicyd: active/inactive (systemctl), enabled/not-enabled (from --root), or Unknown. */
  services: Record<'firewalld' | 'fapolicyd', { state: ServiceState; source: string } | Unknown>;
  resolvConf: { text: string; path: string } | Unknown;
  swaps: { active: string[] } | Unknown;
  cpus: number | Unknown;
  memoryBytes: number | Unknown;
  brNetfilter: { loaded: boolean; source: string } | Unknown;
  ipForward: { value: string; path: string } | Unknown;
}

export interface PreflightOptions {
  minCpus: number;
  /** Decimal gigabytes (10^9 bytes) of MemTotal. */
  minMemoryGB: number;
}

export const DEFAULT_MIN_CPUS = 2;
export const DEFAULT_MIN_MEMORY_GB = 2;
export const REQUIRED_PORTS = [6443, 2379, 2380, 10250] as const;
export const SKEW_WARN_MS = 1_000;
export const SKEW_FAIL_MS = 30_000;

export const isUnknown = (v: unknown): v is Unknown => typeof v === 'object' && v !== null && 'unknown' in v;

const row = (id: string, label: string, v: Omit<CheckItem, 'id' | 'label'>): CheckItem => ({ id, label, ...v });

// ---------------------------------------------------------------------------------------------
// Checks

export function checkOs(os: OsRelease | Unknown): CheckItem {
  const label = 'Operating system supported';
  if (isUnknown(os)) return row('os', label, { state: 'fail', detail: os.unknown, hint: `supported: ${describeSupportedOs()}` });
  const name = os.prettyName || `${os.id} ${os.versionId}`;
  if (supportedOs(os.id, os.versionId)) return row('os', label, { state: 'ok', detail: name });
  return row('os', label, { state: 'fail', detail: `${name} is not supported`, hint: `supported: ${describeSupportedOs()} (the list is src/preflight/supported-os.ts)` });
}

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
  return sockets.filter((s) => s.port === port && (!proto || s.proto === proto) && (s.proto === 'udp' ? s.state === '07' : s.state === 'LISTEN'));
}

/** "systemd-resolve (pid 512) on udp 127.0.0.53:53, tcp 127.0.0.53:53; …" grouped per process. */
function describeUsers(list: SocketEntry[]): string {
  const by = new Map<string, string[]>();
  for (const s of list) by.set(owner(s), [...(by.get(owner(s)) ?? []), where(s)]);
  return [...by].map(([who, at]) => `${who} on ${at.join(', ')}`).join('; ');
}

export function checkDnsPort(sockets: SocketEntry[] | Unknown): CheckItem {
  const label = 'DNS port 53';
  if (isUnknown(sockets)) return row('dns-port', label, { state: 'warn', detail: `not checked: ${sockets.unknown}`, hint: 'check it yourself: ss -lntup sport = :53' });
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
  return row('dns-port', label, { state: 'fail', detail, hint: 'stop or reconfigure that DNS server (port 53 on all or external addresses), or use another host' });
}

export function checkRequiredPorts(sockets: SocketEntry[] | Unknown): CheckItem {
  const label = `Ports ${REQUIRED_PORTS.join(', ')} free`;
  if (isUnknown(sockets)) return row('ports', label, { state: 'warn', detail: `not checked: ${sockets.unknown}`, hint: `check it yourself: ss -lnt '( sport = :6443 or sport = :2379 or sport = :2380 or sport = :10250 )'` });
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
  if (api === undefined) return row('api-server', label, { state: 'info', detail: 'not checked: no --server and no kube context', hint: 'give --server https://HOST:6443 or --context C' });
  if (isUnknown(api)) return row('api-server', label, { state: 'fail', detail: api.unknown, hint: 'give --server https://HOST:6443 or a --context whose server is an https URL' });
  if (api.error) {
    return row('api-server', label, { state: 'fail', detail: `${api.url} (${api.source}): ${api.error}`, hint: 'check the address, routes and firewalls between this host and the API server (port reachable over TCP, TLS answered)' });
  }
  const times = `TCP ${api.tcpMs ?? '?'} ms, TLS ${api.tlsMs ?? '?'} ms`;
  if (api.certVerified === false && api.source !== '--server') {
    return row('api-server', label, { state: 'warn', detail: `${api.url}: ${times}; certificate not trusted by the context's CA: ${api.certError ?? 'unknown reason'}`, hint: 'the kubeconfig’s certificate-authority-data may not match this server' });
  }
  const note = api.certVerified === false ? ` (certificate not verified: ${api.certError ?? 'no CA given'})` : '';
  return row('api-server', label, { state: 'ok', detail: `${api.url}: ${times}${note}` });
}

export function checkTimeSync(t: TimeSyncFact | Unknown): CheckItem {
  const label = 'Time synchronised (NTP)';
  if (isUnknown(t)) return row('time-sync', label, { state: 'warn', detail: `unknown: ${t.unknown}`, hint: 'run an NTP client (chrony or systemd-timesyncd): certificates and etcd need accurate clocks' });
  if (t.synchronized) return row('time-sync', label, { state: 'ok', detail: `yes (${t.source}${t.detail ? `: ${t.detail}` : ''})` });
  return row('time-sync', label, { state: 'warn', detail: `no (${t.source}${t.detail ? `: ${t.detail}` : ''})`, hint: 'enable NTP (timedatectl set-ntp true, or chronyd) and check the NTP servers are reachable' });
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
    return row('clock-skew', label, { state: 'warn', detail: `not measured: ${api.clockError ?? api.error ?? 'no Date header'}`, hint: 'compare `date -u` here and on a control-plane node' });
  }
  const skew = clockSkewMs(api.clock);
  const abs = Math.abs(skew);
  const detail = `${(skew / 1000).toFixed(1)} s (this host is ${skew > 0 ? 'behind' : 'ahead'}; from the Date header of ${api.clock.via})`;
  if (abs > SKEW_FAIL_MS) return row('clock-skew', label, { state: 'fail', detail, hint: 'more than 30 s: certificates and tokens will fail; synchronise both clocks with NTP' });
  if (abs > SKEW_WARN_MS) return row('clock-skew', label, { state: 'warn', detail, hint: 'more than 1 s: synchronise both clocks with NTP' });
  return row('clock-skew', label, { state: 'ok', detail: `${(skew / 1000).toFixed(1)} s` });
}

export function checkPreviousInstall(p: PreflightFacts['previousInstall']): CheckItem {
  const label = 'No previous Kubernetes installation';
  if (p.found.length === 0) {
    const note = p.empty?.length ? ` (empty ${p.empty.join(', ')} ignored)` : '';
    return row('previous-install', label, { state: 'ok', detail: `none found${note}` });
  }
  return row('previous-install', label, {
    state: 'fail',
    detail: `found ${p.found.join(', ')}`,
    hint: 'remove it first (kubeadm reset, stop and disable the kubelet, remove /etc/kubernetes, /var/lib/etcd, /var/lib/kubelet), or use a clean host',
  });
}

/** Why a name is not a valid RFC 1123 subdomain (a Node's name), or undefined when it is. */
export function nodeNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  if (name.length > 253) return `it is ${name.length} characters long (at most 253)`;
  if (name !== name.toLowerCase()) return 'it has upper-case letters';
  const bad = [...new Set(name.replace(/[a-z0-9.-]/g, ''))];
  if (bad.length) return `it has characters other than a-z, 0-9, - and . (${bad.map((c) => JSON.stringify(c)).join(' ')})`;
  for (const label of name.split('.')) {
    if (label.length === 0) return 'it has an empty label (".." or a leading or trailing dot)';
    if (label.length > 63) return `label "${label.slice(0, 20)}…" is longer than 63 characters`;
    if (!/^[a-z0-9]/.test(label) || !/[a-z0-9]$/.test(label)) return `label "${label}" must start and end with a letter or digit`;
  }
  return undefined;
}

export function checkHostname(h: { name: string; source: string }): CheckItem {
  const label = 'Hostname valid as a node name';
  const problem = nodeNameProblem(h.name);
  if (!problem) return row('hostname', label, { state: 'ok', detail: h.name });
  return row('hostname', label, {
    state: 'fail',
    detail: `"${h.name}" (${h.source}): ${problem}`,
    hint: 'set a lower-case RFC 1123 name: hostnamectl set-hostname NAME (letters, digits, - and ., at most 253 characters)',
  });
}

export function checkService(name: 'firewalld' | 'fapolicyd', s: { state: ServiceState; source: string } | Unknown): CheckItem {
  const label = `${name} not active`;
  const id = name;
  if (isUnknown(s)) return row(id, label, { state: 'info', detail: `not checked: ${s.unknown}` });
  const on = s.state === 'active' || s.state === 'enabled' || s.state === 'activating';
  const detail = `${s.state} (${s.source})`;
  if (!on) return row(id, label, { state: 'ok', detail });
  if (name === 'firewalld') {
    return row(id, label, { state: 'warn', detail, hint: 'open 6443, 2379-2380, 10250 and your CNI’s ports (firewall-cmd --permanent --add-port=…), or stop it: systemctl disable --now firewalld' });
  }
  return row(id, label, { state: 'fail', detail, hint: 'fapolicyd blocks binaries it does not know (kubelet, containerd, CNI plugins): add trust rules for them, or systemctl disable --now fapolicyd' });
}

/** `options … rotate …` lines of a resolv.conf. */
export function rotateLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/[#;].*$/, '').trim())
    .filter((l) => /^options\s/.test(l) && l.split(/\s+/).slice(1).includes('rotate'));
}

export function checkResolvRotate(r: { text: string; path: string } | Unknown): CheckItem {
  const label = 'No "options rotate" in resolv.conf';
  if (isUnknown(r)) return row('resolv-rotate', label, { state: 'warn', detail: `not checked: ${r.unknown}` });
  const lines = rotateLines(r.text);
  if (lines.length === 0) return row('resolv-rotate', label, { state: 'ok', detail: `not set (${r.path})` });
  return row('resolv-rotate', label, {
    state: 'fail',
    detail: `${r.path}: "${lines[0]}"`,
    hint: 'remove rotate from the options line: pods inherit it and queries rotate past the cluster DNS',
  });
}

export function checkSwap(s: { active: string[] } | Unknown): CheckItem {
  const label = 'Swap off';
  if (isUnknown(s)) return row('swap', label, { state: 'warn', detail: `not checked: ${s.unknown}` });
  if (s.active.length === 0) return row('swap', label, { state: 'ok', detail: 'off' });
  return row('swap', label, { state: 'warn', detail: `on: ${s.active.join(', ')}`, hint: 'the kubelet refuses to start with swap on unless configured for it: swapoff -a and remove it from /etc/fstab' });
}

export function checkCpus(n: number | Unknown, min: number): CheckItem {
  const label = `CPUs (at least ${min})`;
  if (isUnknown(n)) return row('cpus', label, { state: 'warn', detail: `not checked: ${n.unknown}` });
  if (n >= min) return row('cpus', label, { state: 'ok', detail: String(n) });
  return row('cpus', label, { state: 'fail', detail: `${n}`, hint: `a control-plane node needs at least ${min} CPUs (--min-cpus to change the minimum)` });
}

export function checkMemory(bytes: number | Unknown, minGB: number): CheckItem {
  const label = `Memory (at least ${minGB} GB)`;
  if (isUnknown(bytes)) return row('memory', label, { state: 'warn', detail: `not checked: ${bytes.unknown}` });
  const gb = bytes / 1e9;
  const detail = `${gb.toFixed(1)} GB`;
  if (gb >= minGB) return row('memory', label, { state: 'ok', detail });
  return row('memory', label, { state: 'fail', detail, hint: `at least ${minGB} GB of memory (MemTotal) is needed (--min-memory to change the minimum)` });
}

export function checkBrNetfilter(b: { loaded: boolean; source: string } | Unknown): CheckItem {
  const label = 'br_netfilter loaded';
  if (isUnknown(b)) return row('br-netfilter', label, { state: 'warn', detail: `not checked: ${b.unknown}` });
  if (b.loaded) return row('br-netfilter', label, { state: 'ok', detail: `yes (${b.source})` });
  return row('br-netfilter', label, { state: 'fail', detail: `no (${b.source})`, hint: 'modprobe br_netfilter, and add it to /etc/modules-load.d/k8s.conf' });
}

export function checkIpForward(f: { value: string; path: string } | Unknown): CheckItem {
  const label = 'IPv4 forwarding on';
  if (isUnknown(f)) return row('ip-forward', label, { state: 'warn', detail: `not checked: ${f.unknown}` });
  if (f.value === '1') return row('ip-forward', label, { state: 'ok', detail: '1' });
  return row('ip-forward', label, { state: 'fail', detail: `${f.value} (${f.path})`, hint: 'sysctl -w net.ipv4.ip_forward=1, and set it in /etc/sysctl.d/k8s.conf' });
}

/** Every row, in the order printed. */
export function preflightChecks(f: PreflightFacts, opts: PreflightOptions): CheckItem[] {
  return [
    checkOs(f.os),
    checkDnsPort(f.sockets),
    checkApiServer(f.apiServer),
    checkTimeSync(f.timeSync),
    checkClockSkew(f.apiServer),
    checkPreviousInstall(f.previousInstall),
    checkHostname(f.hostname),
    checkService('firewalld', f.services.firewalld),
    checkService('fapolicyd', f.services.fapolicyd),
    checkResolvRotate(f.resolvConf),
    checkSwap(f.swaps),
    checkCpus(f.cpus, opts.minCpus),
    checkMemory(f.memoryBytes, opts.minMemoryGB),
    checkRequiredPorts(f.sockets),
    checkBrNetfilter(f.brNetfilter),
    checkIpForward(f.ipForward),
  ];
}

export const hasFailures = (items: readonly CheckItem[]) => items.some((i) => i.state === 'fail');
