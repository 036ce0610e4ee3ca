/** Checks of the host itself (pure): OS, time, previous installation, hostname, services, resolv.conf, swap, CPUs, memory, kernel. */
import type { CheckItem } from '../checklist/checklist.js';
import { isUnknown, type OsRelease, type PreflightFacts, type ServiceState, type TimeSyncFact, type Unknown } from './facts.js';
import { row } from './row.js';
import { describeSupportedOs, supportedOs } from './supported-os.js';

export function checkOs(os: OsRelease | Unknown): CheckItem {
  const label = 'Operating system supported';
  if (isUnknown(os)) return row('os', label, { state: 'fail', detail: os.unknown, hint: `supported: ${describeSupportedOs()}` });
  const name = os.prettyName || `${os.id} ${os.versionId}`;
  if (supportedOs(os.id, os.versionId)) return row('os', label, { state: 'ok', detail: name });
  return row('os', label, {
    state: 'fail',
    detail: `${name} is not supported`,
    hint: `supported: ${describeSupportedOs()} (the list is src/preflight/supported-os.ts)`,
  });
}

export function checkTimeSync(t: TimeSyncFact | Unknown): CheckItem {
  const label = 'Time synchronised (NTP)';
  if (isUnknown(t))
    return row('time-sync', label, {
      state: 'warn',
      detail: `unknown: ${t.unknown}`,
      hint: 'run an NTP client (chrony or systemd-timesyncd): certificates and etcd need accurate clocks',
    });
  if (t.synchronized) return row('time-sync', label, { state: 'ok', detail: `yes (${t.source}${t.detail ? `: ${t.detail}` : ''})` });
  return row('time-sync', label, {
    state: 'warn',
    detail: `no (${t.source}${t.detail ? `: ${t.detail}` : ''})`,
    hint: 'enable NTP (timedatectl set-ntp true, or chronyd) and check the NTP servers are reachable',
  });
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
    return row(id, label, {
      state: 'warn',
      detail,
      hint: 'open 6443, 2379-2380, 10250 and your CNI’s ports (firewall-cmd --permanent --add-port=…), or stop it: systemctl disable --now firewalld',
    });
  }
  return row(id, label, {
    state: 'fail',
    detail,
    hint: 'fapolicyd blocks binaries it does not know (kubelet, containerd, CNI plugins): add trust rules for them, or systemctl disable --now fapolicyd',
  });
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
  return row('swap', label, {
    state: 'warn',
    detail: `on: ${s.active.join(', ')}`,
    hint: 'the kubelet refuses to start with swap on unless configured for it: swapoff -a and remove it from /etc/fstab',
  });
}

export function checkCpus(n: number | Unknown, min: number): CheckItem {
  const label = `CPUs (at least ${min})`;
  if (isUnknown(n)) return row('cpus', label, { state: 'warn', detail: `not checked: ${n.unknown}` });
  if (n >= min) return row('cpus', label, { state: 'ok', detail: String(n) });
  return row('cpus', label, {
    state: 'fail',
    detail: `${n}`,
    hint: `a control-plane node needs at least ${min} CPUs (--min-cpus to change the minimum)`,
  });
}

export function checkMemory(bytes: number | Unknown, minGB: number): CheckItem {
  const label = `Memory (at least ${minGB} GB)`;
  if (isUnknown(bytes)) return row('memory', label, { state: 'warn', detail: `not checked: ${bytes.unknown}` });
  const gb = bytes / 1e9;
  const detail = `${gb.toFixed(1)} GB`;
  if (gb >= minGB) return row('memory', label, { state: 'ok', detail });
  return row('memory', label, {
    state: 'fail',
    detail,
    hint: `at least ${minGB} GB of memory (MemTotal) is needed (--min-memory to change the minimum)`,
  });
}

export function checkBrNetfilter(b: { loaded: boolean; source: string } | Unknown): CheckItem {
  const label = 'br_netfilter loaded';
  if (isUnknown(b)) return row('br-netfilter', label, { state: 'warn', detail: `not checked: ${b.unknown}` });
  if (b.loaded) return row('br-netfilter', label, { state: 'ok', detail: `yes (${b.source})` });
  return row('br-netfilter', label, {
    state: 'fail',
    detail: `no (${b.source})`,
    hint: 'modprobe br_netfilter, and add it to /etc/modules-load.d/k8s.conf',
  });
}

export function checkIpForward(f: { value: string; path: string } | Unknown): CheckItem {
  const label = 'IPv4 forwarding on';
  if (isUnknown(f)) return row('ip-forward', label, { state: 'warn', detail: `not checked: ${f.unknown}` });
  if (f.value === '1') return row('ip-forward', label, { state: 'ok', detail: '1' });
  return row('ip-forward', label, {
    state: 'fail',
    detail: `${f.value} (${f.path})`,
    hint: 'sysctl -w net.ipv4.ip_forward=1, and set it in /etc/sysctl.d/k8s.conf',
  });
}
