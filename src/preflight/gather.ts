/**
 * Facts for `fleetdeck preflight`, read from a root directory (`--root`, default /) and, when the
 * root is the real one, from commands (systemctl, timedatectl, chronyc) through an injectable
 * runner. The API server is probed over TCP and TLS (node:net, node:tls) and its clock read from
 * the Date header of GET /version: through @kubernetes/client-node's HTTP library when a kube
 * context is used, else a plain HTTPS HEAD without credentials to the --server URL.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { createConfiguration, HttpMethod, ServerConfiguration, type KubeConfig } from '@kubernetes/client-node';
import { describeError } from '../kube/client.js';
import type { ApiServerFact, OsRelease, PreflightFacts, SocketEntry, TimeSyncFact, Unknown } from './checks.js';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command; undefined when it does not exist. */
export type CommandRunner = (cmd: string, args: string[]) => Promise<CommandResult | undefined>;

export const execRunner: CommandRunner = (cmd, args) =>
  new Promise((resolve) => {
    execFile(cmd, args, { timeout: 5_000, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }, (err, stdout, stderr) => {
      if ((err as NodeJS.ErrnoException | null)?.code === 'ENOENT') return resolve(undefined);
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : null) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });

/** The API server to probe: a URL, and the context's KubeConfig when it comes from one. */
export interface ApiTarget {
  url: string;
  source: string;
  kc?: KubeConfig;
}

export interface GatherOptions {
  root?: string;
  /** Default: execRunner when root is "/", else none (commands describe this host, not the root). */
  runner?: CommandRunner | null;
  api?: ApiTarget;
  timeoutMs?: number;
}

// ---------------------------------------------------------------------------------------------
// Parsers (pure)

export function parseOsRelease(text: string): OsRelease {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) vars[m[1]!] = m[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return { id: (vars.ID ?? '').toLowerCase(), versionId: vars.VERSION_ID ?? '', prettyName: vars.PRETTY_NAME ?? '' };
}

const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED', '02': 'SYN_SENT', '03': 'SYN_RECV', '04': 'FIN_WAIT1', '05': 'FIN_WAIT2', '06': 'TIME_WAIT',
  '07': 'CLOSE', '08': 'CLOSE_WAIT', '09': 'LAST_ACK', '0A': 'LISTEN', '0B': 'CLOSING',
};

/** "0100007F" → 127.0.0.1; 32 hex digits → an IPv6 address (each 32-bit word in host order, little endian). */
export function decodeProcAddress(hex: string): string {
  const word = (h: string) => Buffer.from(h, 'hex').reverse();
  if (hex.length === 8) return [...word(hex)].join('.');
  const bytes = Buffer.concat([0, 8, 16, 24].map((i) => word(hex.slice(i, i + 8))));
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') return `::ffff:${[...bytes.subarray(12)].join('.')}`;
  // Shorten the longest run of two or more zero groups to "::".
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

export function parseProcNet(text: string, proto: 'tcp' | 'udp', ipv6: boolean): SocketEntry[] {
  const out: SocketEntry[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const [addr, port] = f[1]!.split(':');
    if (!addr || !port) continue;
    const st = f[3]!.toUpperCase();
    out.push({ proto, ipv6, address: decodeProcAddress(addr), port: parseInt(port, 16), state: proto === 'tcp' ? (TCP_STATES[st] ?? st) : st, inode: Number(f[9]) });
  }
  return out;
}

export function parseSwaps(text: string): string[] {
  return text.split('\n').slice(1).map((l) => l.trim().split(/\s+/)[0] ?? '').filter(Boolean);
}

export function parseCpuCount(cpuinfo: string): number {
  return cpuinfo.split('\n').filter((l) => /^processor\s*:/.test(l)).length;
}

export function parseMemTotalBytes(meminfo: string): number | undefined {
  const m = /^MemTotal:\s+(\d+)\s*kB/m.exec(meminfo);
  return m ? Number(m[1]) * 1024 : undefined;
}

export function parseTimedatectl(text: string): boolean | undefined {
  const m = /^NTPSynchronized=(yes|no)$/m.exec(text);
  return m ? m[1] === 'yes' : undefined;
}

/** chronyc tracking: synchronised unless the leap status says not. */
export function parseChronyTracking(text: string): { synchronized: boolean; detail?: string } | undefined {
  const leap = /^Leap status\s*:\s*(.+)$/m.exec(text)?.[1]?.trim();
  if (!leap) return undefined;
  const offset = /^System time\s*:\s*(.+)$/m.exec(text)?.[1]?.trim();
  return { synchronized: leap !== 'Not synchronised', detail: [`leap status ${leap}`, offset].filter(Boolean).join(', ') };
}

// ---------------------------------------------------------------------------------------------
// Readers

const at = (root: string, rel: string) => path.join(root, rel);

function read(root: string, rel: string): string | undefined {
  try {
    return fs.readFileSync(at(root, rel), 'utf8');
  } catch {
    return undefined;
  }
}

const exists = (root: string, rel: string) => fs.existsSync(at(root, rel));
const unknown = (why: string): Unknown => ({ unknown: why });

/** inode → the process holding the socket, from <root>/proc/<pid>/fd (only the readable ones). */
export function socketOwners(root: string): Map<number, { pid: number; name: string }> {
  const owners = new Map<number, { pid: number; name: string }>();
  let pids: string[] = [];
  try {
    pids = fs.readdirSync(at(root, 'proc')).filter((d) => /^\d+$/.test(d));
  } catch {
    return owners;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(at(root, `proc/${pid}/fd`));
    } catch {
      continue;
    }
    let name: string | undefined;
    for (const fd of fds) {
      let link: string;
      try {
        link = fs.readlinkSync(at(root, `proc/${pid}/fd/${fd}`));
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (!m) continue;
      name ??= read(root, `proc/${pid}/comm`)?.trim() || `pid ${pid}`;
      owners.set(Number(m[1]), { pid: Number(pid), name });
    }
  }
  return owners;
}

export function readSockets(root: string): SocketEntry[] | Unknown {
  const all: SocketEntry[] = [];
  let readAny = false;
  for (const proto of ['tcp', 'udp'] as const) {
    for (const v6 of [false, true]) {
      const text = read(root, `proc/net/${proto}${v6 ? '6' : ''}`);
      if (text === undefined) continue;
      readAny = true;
      all.push(...parseProcNet(text, proto, v6));
    }
  }
  if (!readAny) return unknown(`cannot read ${at(root, 'proc/net/tcp')}`);
  const interesting = all.filter((s) => s.state === 'LISTEN' || s.state === '07');
  if (interesting.length) {
    const owners = socketOwners(root);
    for (const s of interesting) {
      const o = owners.get(s.inode);
      if (o && s.inode !== 0) s.process = o;
    }
  }
  return all;
}

function readOs(root: string): OsRelease | Unknown {
  const text = read(root, 'etc/os-release') ?? read(root, 'usr/lib/os-release');
  if (text === undefined) return unknown(`no ${at(root, 'etc/os-release')}${process.platform !== 'linux' ? ` (this is ${process.platform}, not Linux)` : ''}`);
  const o = parseOsRelease(text);
  return o.id ? o : unknown(`${at(root, 'etc/os-release')} has no ID`);
}

function readPreviousInstall(root: string): PreflightFacts['previousInstall'] {
  const found: string[] = [];
  const bins = new Set(['usr/bin/kubelet', 'usr/local/bin/kubelet'].filter((b) => exists(root, b)).map((b) => at(root, b)));
  if (root === '/') {
    for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
      const p = path.join(dir, 'kubelet');
      try {
        if (fs.statSync(p).isFile()) bins.add(p);
      } catch {
        // not there
      }
    }
  }
  found.push(...[...bins].map((b) => `kubelet binary ${b}`));
  for (const unit of ['etc/systemd/system/kubelet.service', 'usr/lib/systemd/system/kubelet.service', 'lib/systemd/system/kubelet.service', 'etc/systemd/system/kubelet.service.d']) {
    if (exists(root, unit)) found.push(`kubelet service ${at(root, unit)}`);
  }
  // As kubeadm: an empty directory is no installation (packages such as etcd-server create one).
  const empty: string[] = [];
  for (const dir of ['etc/kubernetes', 'var/lib/etcd', 'var/lib/kubelet']) {
    if (!exists(root, dir)) continue;
    try {
      if (fs.readdirSync(at(root, dir)).length === 0) empty.push(at(root, dir));
      else found.push(at(root, dir));
    } catch {
      found.push(`${at(root, dir)} (cannot be listed)`);
    }
  }
  return { found, empty };
}

function readHostname(root: string): { name: string; source: string } {
  const file = read(root, 'etc/hostname')?.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('#'));
  if (file !== undefined) return { name: file, source: at(root, 'etc/hostname') };
  if (root === '/') return { name: os.hostname(), source: 'os.hostname()' };
  return { name: '', source: `no ${at(root, 'etc/hostname')}` };
}

async function readService(root: string, name: 'firewalld' | 'fapolicyd', runner: CommandRunner | null) {
  if (!runner) {
    const link = `etc/systemd/system/multi-user.target.wants/${name}.service`;
    let linked = false;
    try {
      linked = fs.lstatSync(at(root, link)) !== undefined;
    } catch {
      linked = false;
    }
    return { state: linked ? 'enabled' : 'not-enabled', source: `${at(root, 'etc/systemd/system/multi-user.target.wants')}` };
  }
  const r = await runner('systemctl', ['is-active', name]);
  if (!r) return unknown('systemctl is not available');
  const state = r.stdout.trim().split('\n')[0] ?? '';
  if (['active', 'inactive', 'failed', 'activating', 'deactivating', 'reloading'].includes(state)) return { state, source: 'systemctl is-active' };
  return unknown(`systemctl is-active ${name}: ${(r.stderr.trim() || state || `exit ${r.code}`).split('\n')[0]}`);
}

async function readTimeSync(root: string, runner: CommandRunner | null): Promise<TimeSyncFact | Unknown> {
  const tried: string[] = [];
  if (runner) {
    const t = await runner('timedatectl', ['show']);
    if (t) {
      const s = parseTimedatectl(t.stdout);
      if (s !== undefined) return { source: 'timedatectl', synchronized: s, detail: /^NTP=(\w+)$/m.exec(t.stdout)?.[1] === 'no' ? 'NTP service off' : undefined };
      tried.push(`timedatectl: ${(t.stderr.trim() || 'no NTPSynchronized').split('\n')[0]}`);
    }
    const c = await runner('chronyc', ['tracking']);
    if (c) {
      const s = parseChronyTracking(c.stdout);
      if (s) return { source: 'chronyc tracking', ...s };
      tried.push(`chronyc: ${(c.stderr.trim() || 'no leap status').split('\n')[0]}`);
    }
  }
  if (exists(root, 'run/systemd/timesync/synchronized')) return { source: 'systemd-timesyncd', synchronized: true };
  if (exists(root, 'run/systemd/timesync')) return { source: 'systemd-timesyncd', synchronized: false, detail: `no ${at(root, 'run/systemd/timesync/synchronized')}` };
  return unknown([...tried, `no timedatectl or chronyc answer, no ${at(root, 'run/systemd/timesync')}`].join('; '));
}

// ---------------------------------------------------------------------------------------------
// The API server

/** TCP connect, then a TLS handshake on that socket; times in ms. */
async function handshake(target: ApiTarget, timeoutMs: number): Promise<Pick<ApiServerFact, 'tcpMs' | 'tlsMs' | 'certVerified' | 'certError' | 'error'>> {
  const u = new URL(target.url);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(u.port || 443);
  const opts: https.RequestOptions & { skipTLSVerify?: boolean } = {};
  let skipVerify = false;
  if (target.kc) {
    await target.kc.applyToHTTPSOptions(opts);
    skipVerify = target.kc.getCurrentCluster()?.skipTLSVerify === true;
  }
  return new Promise((resolve) => {
    const t0 = performance.now();
    let tcpMs: number | undefined;
    let done = false;
    const finish = (v: Awaited<ReturnType<typeof handshake>>, ...sockets: (net.Socket | undefined)[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      for (const s of sockets) s?.destroy();
      resolve(v);
    };
    const sock = net.connect({ host, port });
    let secure: tls.TLSSocket | undefined;
    const timer = setTimeout(() => finish({ tcpMs, error: tcpMs === undefined ? `TCP connect to ${host}:${port} timed out` : 'TLS handshake timed out' }, sock, secure), timeoutMs);
    sock.once('error', (err) => finish({ tcpMs, error: describeError(err) }, sock));
    sock.once('connect', () => {
      tcpMs = Math.round(performance.now() - t0);
      const t1 = performance.now();
      secure = tls.connect({
        socket: sock,
        ...(net.isIP(host) ? {} : { servername: host }),
        ...(opts.ca ? { ca: opts.ca } : {}),
        ...(opts.cert ? { cert: opts.cert, key: opts.key } : {}),
        rejectUnauthorized: false,
      });
      secure.once('error', (err) => finish({ tcpMs, error: `TLS: ${describeError(err).replace(/^TLS: /, '')}` }, secure, sock));
      secure.once('secureConnect', () => {
        const tlsMs = Math.round(performance.now() - t1);
        const verified = skipVerify ? undefined : secure!.authorized;
        const certError = secure!.authorizationError ? String(secure!.authorizationError) : undefined;
        finish({ tcpMs, tlsMs, ...(verified === undefined ? {} : { certVerified: verified }), ...(certError ? { certError } : {}) }, secure, sock);
      });
    });
  });
}

/** The server's Date header, from GET /version through client-node (a context) or HEAD (a bare URL). */
async function serverClock(target: ApiTarget, timeoutMs: number): Promise<Pick<ApiServerFact, 'clock' | 'clockError'>> {
  const t0 = Date.now();
  try {
    let date: string | undefined;
    let via: string;
    if (target.kc) {
      const kc = target.kc;
      const config = createConfiguration({
        baseServer: new ServerConfiguration(target.url, {}),
        authMethods: { default: { getName: () => 'kubeconfig', applySecurityAuthentication: (ctx) => kc.applySecurityAuthentication(ctx) } },
      });
      const ctx = config.baseServer.makeRequestContext('/version', HttpMethod.GET);
      ctx.setHeaderParam('Accept', 'application/json');
      ctx.setSignal(AbortSignal.timeout(timeoutMs));
      await config.authMethods.default?.applySecurityAuthentication(ctx);
      const res = await config.httpApi.send(ctx).toPromise();
      await res.body.text();
      date = res.headers.date ?? res.headers.Date;
      via = 'GET /version';
    } else {
      via = 'HEAD /version';
      date = await new Promise<string | undefined>((resolve, reject) => {
        const req = https.request(new URL('/version', target.url), { method: 'HEAD', rejectUnauthorized: false, timeout: timeoutMs }, (res) => {
          res.resume();
          resolve(res.headers.date);
        });
        req.once('timeout', () => req.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' })));
        req.once('error', reject);
        req.end();
      });
    }
    const t1 = Date.now();
    const serverDate = date ? Date.parse(date) : NaN;
    if (Number.isNaN(serverDate)) return { clockError: `no Date header in the answer to ${via}` };
    return { clock: { serverDate, localMidpoint: (t0 + t1) / 2, via } };
  } catch (err) {
    return { clockError: describeError(err) };
  }
}

export async function probeApiServer(target: ApiTarget, timeoutMs = 5_000): Promise<ApiServerFact | Unknown> {
  let u: URL;
  try {
    u = new URL(target.url);
  } catch {
    return unknown(`"${target.url}" (${target.source}) is not a URL`);
  }
  if (u.protocol !== 'https:') return unknown(`${target.url} (${target.source}) is not an https URL`);
  const hs = await handshake(target, timeoutMs);
  const fact: ApiServerFact = { url: target.url, source: target.source, ...hs };
  if (hs.error) return fact;
  return { ...fact, ...(await serverClock(target, timeoutMs)) };
}

// ---------------------------------------------------------------------------------------------

export async function gatherFacts(opts: GatherOptions = {}): Promise<PreflightFacts> {
  const root = path.resolve(opts.root ?? '/');
  const runner = opts.runner === undefined ? (root === '/' ? execRunner : null) : opts.runner;
  const cpuinfo = read(root, 'proc/cpuinfo');
  const meminfo = read(root, 'proc/meminfo');
  const swaps = read(root, 'proc/swaps');
  const modules = read(root, 'proc/modules');
  const ipf = read(root, 'proc/sys/net/ipv4/ip_forward');
  const resolv = read(root, 'etc/resolv.conf');
  const mem = meminfo !== undefined ? parseMemTotalBytes(meminfo) : undefined;
  const cpus = cpuinfo !== undefined ? parseCpuCount(cpuinfo) : 0;
  let brNetfilter: PreflightFacts['brNetfilter'];
  const bridgeSysctl = 'proc/sys/net/bridge/bridge-nf-call-iptables';
  if (exists(root, 'sys/module/br_netfilter')) brNetfilter = { loaded: true, source: at(root, 'sys/module/br_netfilter') };
  else if (modules !== undefined) brNetfilter = { loaded: /^br_netfilter\s/m.test(modules), source: at(root, 'proc/modules') };
  // br_netfilter creates the net.bridge sysctls: they tell when /proc/modules is not readable.
  else if (exists(root, bridgeSysctl)) brNetfilter = { loaded: true, source: at(root, bridgeSysctl) };
  else if (exists(root, 'proc/sys/net')) brNetfilter = { loaded: false, source: `no ${at(root, bridgeSysctl)}` };
  else brNetfilter = unknown(`cannot read ${at(root, 'proc/modules')}`);

  const [apiServer, timeSync, firewalld, fapolicyd] = await Promise.all([
    opts.api ? probeApiServer(opts.api, opts.timeoutMs) : Promise.resolve(undefined),
    readTimeSync(root, runner),
    readService(root, 'firewalld', runner),
    readService(root, 'fapolicyd', runner),
  ]);
  return {
    root,
    os: readOs(root),
    sockets: readSockets(root),
    ...(apiServer ? { apiServer } : {}),
    timeSync,
    previousInstall: readPreviousInstall(root),
    hostname: readHostname(root),
    services: { firewalld, fapolicyd },
    resolvConf: resolv !== undefined ? { text: resolv, path: at(root, 'etc/resolv.conf') } : unknown(`cannot read ${at(root, 'etc/resolv.conf')}`),
    swaps: swaps !== undefined ? { active: parseSwaps(swaps) } : unknown(`cannot read ${at(root, 'proc/swaps')}`),
    cpus: cpus > 0 ? cpus : root === '/' && cpuinfo === undefined ? os.cpus().length || unknown('cannot read /proc/cpuinfo') : unknown(`no processor in ${at(root, 'proc/cpuinfo')}`),
    memoryBytes: mem ?? (root === '/' ? os.totalmem() : unknown(`no MemTotal in ${at(root, 'proc/meminfo')}`)),
    brNetfilter,
    ipForward: ipf !== undefined ? { value: ipf.trim(), path: at(root, 'proc/sys/net/ipv4/ip_forward') } : unknown(`cannot read ${at(root, 'proc/sys/net/ipv4/ip_forward')}`),
  };
}
