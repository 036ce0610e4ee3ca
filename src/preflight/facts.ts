/** What `fleetdeck preflight` finds out about a host (gather.ts), for the checks to judge (checks.ts). */
import type { ApiServerFact } from '../kube/api/server-probe.js';

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

export const isUnknown = (v: unknown): v is Unknown => typeof v === 'object' && v !== null && 'unknown' in v;
