/** Facts read from files under a root directory (`--root`, default /): /proc, /etc, /sys, /run. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OsRelease, PreflightFacts, SocketEntry, Unknown } from './facts.js';
import { parseOsRelease, parseProcNet } from './parse.js';

export const at = (root: string, rel: string) => path.join(root, rel);

export function read(root: string, rel: string): string | undefined {
  try {
    return fs.readFileSync(at(root, rel), 'utf8');
  } catch {
    return undefined;
  }
}

export const exists = (root: string, rel: string) => fs.existsSync(at(root, rel));
export const unknown = (why: string): Unknown => ({ unknown: why });

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

export function readOs(root: string): OsRelease | Unknown {
  const text = read(root, 'etc/os-release') ?? read(root, 'usr/lib/os-release');
  if (text === undefined)
    return unknown(`no ${at(root, 'etc/os-release')}${process.platform !== 'linux' ? ` (this is ${process.platform}, not Linux)` : ''}`);
  const o = parseOsRelease(text);
  return o.id ? o : unknown(`${at(root, 'etc/os-release')} has no ID`);
}

export function readPreviousInstall(root: string): PreflightFacts['previousInstall'] {
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
  for (const unit of [
    'etc/systemd/system/kubelet.service',
    'usr/lib/systemd/system/kubelet.service',
    'lib/systemd/system/kubelet.service',
    'etc/systemd/system/kubelet.service.d',
  ]) {
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

export function readHostname(root: string): { name: string; source: string } {
  const file = read(root, 'etc/hostname')
    ?.split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('#'));
  if (file !== undefined) return { name: file, source: at(root, 'etc/hostname') };
  if (root === '/') return { name: os.hostname(), source: 'os.hostname()' };
  return { name: '', source: `no ${at(root, 'etc/hostname')}` };
}

/** br_netfilter: its /sys/module entry, /proc/modules, or the net.bridge sysctls it creates. */
export function readBrNetfilter(root: string, modules: string | undefined): PreflightFacts['brNetfilter'] {
  const bridgeSysctl = 'proc/sys/net/bridge/bridge-nf-call-iptables';
  if (exists(root, 'sys/module/br_netfilter')) return { loaded: true, source: at(root, 'sys/module/br_netfilter') };
  if (modules !== undefined) return { loaded: /^br_netfilter\s/m.test(modules), source: at(root, 'proc/modules') };
  // br_netfilter creates the net.bridge sysctls: they tell when /proc/modules is not readable.
  if (exists(root, bridgeSysctl)) return { loaded: true, source: at(root, bridgeSysctl) };
  if (exists(root, 'proc/sys/net')) return { loaded: false, source: `no ${at(root, bridgeSysctl)}` };
  return unknown(`cannot read ${at(root, 'proc/modules')}`);
}
