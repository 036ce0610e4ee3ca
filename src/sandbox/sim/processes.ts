/**
 * The pure half of running pods for real: which containers the sandbox runs, and how a
 * container's command line becomes a local one (Kubernetes' `$(VAR)` expansion, volume mount
 * paths replaced by the directories the sandbox materialized, wildcard listen addresses
 * replaced by the pod's own loopback address).
 */
import type { V1Container, V1EnvVar } from '@kubernetes/client-node';

/**
 * What the sandbox runs for a container: a real binary, the in-process agent or scheduler, the local
 * fleetdeck bundle (see fleetdeck-launch.ts), or nothing (simulated).
 */
export type ContainerKind = 'etcd' | 'kube-apiserver' | 'nova-agent' | 'nova-scheduler' | 'fleetdeck';

/** The fleetdeck image under any registry and tag (`ghcr.io/fleetdeck/fleetdeck:0.1.0`, `fleetdeck@sha256:…`). */
export const FLEETDECK_IMAGE = /(^|\/)fleetdeck(:|@|$)/;

export function containerKind(c: Pick<V1Container, 'name' | 'image'>): ContainerKind | undefined {
  const image = c.image ?? '';
  if (c.name === 'nova-agent' || /nova-agent/.test(image)) return 'nova-agent';
  if (c.name === 'nova-scheduler' && /(kube|nova)-scheduler/.test(image)) return 'nova-scheduler';
  if (FLEETDECK_IMAGE.test(image)) return 'fleetdeck';
  if (/kube-apiserver:/.test(image)) return 'kube-apiserver';
  if (/\/etcd:/.test(image)) return 'etcd';
  return undefined;
}

/**
 * Kubernetes' `$(VAR)` expansion (as in k8s.io/kubernetes third_party/forked/golang/expansion):
 * `$(VAR)` becomes the variable's value when it is defined and stays as written otherwise;
 * `$$` is an escaped `$`; any other `$` is kept.
 */
export function expandVars(input: string, vars: Readonly<Record<string, string>>): string {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (ch !== '$' || i + 1 >= input.length) {
      out += ch;
      continue;
    }
    const next = input[i + 1]!;
    if (next === '$') {
      out += '$';
      i += 1;
    } else if (next === '(') {
      const close = input.indexOf(')', i + 2);
      if (close < 0) {
        out += '$(';
        i += 1;
      } else {
        const name = input.slice(i + 2, close);
        out += Object.hasOwn(vars, name) ? vars[name] : `$(${name})`;
        i = close;
      }
    } else {
      out += `$${next}`;
      i += 1;
    }
  }
  return out;
}

/** Where a container's environment variables come from (fieldRefs, Secrets, ConfigMaps). */
export interface EnvSources {
  /** A fieldRef's value (`metadata.name`, `metadata.namespace`, `status.podIP`, …). */
  field(path: string): string | undefined;
  secret?(name: string): Promise<Record<string, string> | undefined>;
  configMap?(name: string): Promise<Record<string, string> | undefined>;
}

/**
 * The container's environment as the kubelet builds it: `envFrom` first, then `env` in order,
 * each value expanded with the variables defined before it. A missing optional source is
 * skipped; a missing required one is an error (the kubelet does not start the container).
 */
export async function containerEnv(c: Pick<V1Container, 'env' | 'envFrom'>, src: EnvSources): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    const ref = from.secretRef ?? from.configMapRef;
    if (!ref?.name) continue;
    const data = from.secretRef ? await src.secret?.(ref.name) : await src.configMap?.(ref.name);
    if (!data) {
      if (ref.optional) continue;
      throw new Error(`${from.secretRef ? 'secret' : 'configmap'} "${ref.name}" not found`);
    }
    for (const [k, v] of Object.entries(data)) env[`${from.prefix ?? ''}${k}`] = v;
  }
  for (const e of c.env ?? []) {
    const v = await envValue(e, env, src);
    if (v !== undefined) env[e.name] = v;
  }
  return env;
}

async function envValue(e: V1EnvVar, defined: Record<string, string>, src: EnvSources): Promise<string | undefined> {
  if (!e.valueFrom) return expandVars(e.value ?? '', defined);
  const { fieldRef, secretKeyRef, configMapKeyRef, resourceFieldRef } = e.valueFrom;
  if (fieldRef) {
    const v = src.field(fieldRef.fieldPath);
    if (v === undefined) throw new Error(`env ${e.name}: unsupported fieldRef ${fieldRef.fieldPath}`);
    return v;
  }
  const keyRef = secretKeyRef ?? configMapKeyRef;
  if (keyRef) {
    const data = secretKeyRef ? await src.secret?.(keyRef.name ?? '') : await src.configMap?.(keyRef.name ?? '');
    const v = data?.[keyRef.key];
    if (v === undefined && !keyRef.optional) {
      throw new Error(`env ${e.name}: key "${keyRef.key}" of ${secretKeyRef ? 'secret' : 'configmap'} "${keyRef.name ?? ''}" not found`);
    }
    return v;
  }
  if (resourceFieldRef) return '0';
  return undefined;
}

/** A container's volume mount and the local directory (or file) that stands for it. */
export interface MountMapping {
  mountPath: string;
  hostPath: string;
  readOnly?: boolean;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replaces every occurrence of a mount path in `value` (as a whole path or a path prefix,
 * e.g. `--cert-file=/etc/etcd/pki/x.crt`) by its local path; the longest mount path wins and
 * nothing is rewritten twice.
 */
export function rewriteMountPaths(value: string, mounts: readonly MountMapping[]): string {
  const list = mounts
    .map((m) => ({ mountPath: m.mountPath.replace(/\/+$/, ''), hostPath: m.hostPath }))
    .filter((m) => m.mountPath.startsWith('/') && m.mountPath.length > 1)
    .sort((a, b) => b.mountPath.length - a.mountPath.length);
  if (list.length === 0) return value;
  const re = new RegExp(`(?<![A-Za-z0-9._~/-])(${list.map((m) => escapeRegExp(m.mountPath)).join('|')})(?![A-Za-z0-9._~-])`, 'g');
  return value.replace(re, (mp: string) => list.find((m) => m.mountPath === mp)!.hostPath);
}

/** Flags whose values are addresses a server listens on. */
const LISTEN_FLAG = /^--?[a-z0-9-]*(listen[a-z0-9-]*|bind-address)$/;
const WILDCARD_HOSTS = ['0.0.0.0', '127.0.0.1', 'localhost', '[::]', '::', '[::1]', ''];

function rewriteListenValue(value: string, ip: string): string {
  const items = value.split(',').map((item) => {
    const url = /^([a-z][a-z0-9+.-]*:\/\/)(\[[^\]]*\]|[^:/]*)(.*)$/i.exec(item);
    if (url) return WILDCARD_HOSTS.includes(url[2]!) ? `${url[1]}${ip}${url[3]}` : item;
    // HOST:PORT (`0.0.0.0:9464`, `:9464`, `[::]:9464`).
    const hostPort = /^(\[[^\]]*\]|[^:]*):(\d+)$/.exec(item);
    if (hostPort) return WILDCARD_HOSTS.includes(hostPort[1]!) ? `${ip}:${hostPort[2]}` : item;
    return WILDCARD_HOSTS.includes(item) ? ip : item;
  });
  return [...new Set(items)].join(',');
}

/**
 * Points listen flags (`--listen-client-urls`, `--listen-peer-urls`, `--bind-address`, …) that
 * name a wildcard or loopback address (0.0.0.0, ::, 127.0.0.1, localhost) at the pod's own
 * address `ip`, so every pod can use the same ports; duplicates this creates are dropped.
 * Other occurrences of the address 0.0.0.0 (not of a CIDR like 0.0.0.0/0) are replaced too.
 */
export function rewriteListenArgs(argv: readonly string[], ip: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (LISTEN_FLAG.test(flag)) {
      if (eq > 0) {
        out.push(`${flag}=${rewriteListenValue(arg.slice(eq + 1), ip)}`);
        continue;
      }
      const value = argv[i + 1];
      if (value !== undefined && !value.startsWith('-')) {
        out.push(arg, rewriteListenValue(value, ip));
        i++;
        continue;
      }
    }
    out.push(arg.replace(/(?<![\d.])0\.0\.0\.0(?![\d./])/g, ip));
  }
  return out;
}

/** The value of `--name` (`--name=v`, `--name v`, or with a single dash), or undefined. */
export function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(argv[i]!);
    if (!m || m[1] !== name) continue;
    if (m[2] !== undefined) return m[2];
    const next = argv[i + 1];
    return next !== undefined && !next.startsWith('-') ? next : 'true';
  }
  return undefined;
}

/**
 * What the sandbox adds so a binary stays on its pod's address and inside the sandbox
 * directory when the pod's args leave a setting at a default that would not: etcd's
 * localhost URLs, kube-apiserver's all-interfaces bind address, advertised host address and
 * /var/run/kubernetes.
 */
export function sandboxDefaults(kind: 'etcd' | 'kube-apiserver', argv: readonly string[], ip: string, podDir: string): string[] {
  const has = (name: string) => flagValue(argv, name) !== undefined;
  const add: string[] = [];
  if (kind === 'etcd') {
    if (!has('listen-client-urls')) {
      add.push(`--listen-client-urls=http://${ip}:2379`);
      if (!has('advertise-client-urls')) add.push(`--advertise-client-urls=http://${ip}:2379`);
    }
    if (!has('listen-peer-urls')) {
      add.push(`--listen-peer-urls=http://${ip}:2380`);
      if (!has('initial-advertise-peer-urls')) {
        add.push(`--initial-advertise-peer-urls=http://${ip}:2380`);
        if (!has('initial-cluster')) add.push(`--initial-cluster=${flagValue(argv, 'name') ?? 'default'}=http://${ip}:2380`);
      }
    }
    if (!has('data-dir')) add.push(`--data-dir=${podDir}/etcd-data`);
  } else {
    if (!has('bind-address')) add.push(`--bind-address=${ip}`);
    if (!has('advertise-address')) add.push(`--advertise-address=${ip}`);
    if (!has('cert-dir')) add.push(`--cert-dir=${podDir}/apiserver-certs`);
  }
  return [...argv, ...add];
}

/** How the sandbox checks readiness: the pod's readinessProbe (HTTP(S) GET or TCP), else a TCP connect. */
export interface ReadinessCheck {
  port: number;
  /** Absent: a TCP connect. */
  http?: { scheme: 'HTTP' | 'HTTPS'; path: string };
  periodMs: number;
  failureThreshold: number;
}

export function readinessCheck(
  c: Pick<V1Container, 'ports' | 'readinessProbe'>,
  kind: 'etcd' | 'kube-apiserver',
  argv: readonly string[],
): ReadinessCheck {
  const probe = c.readinessProbe;
  const get = probe?.httpGet;
  return {
    port: readinessPort(c, kind, argv),
    ...(get ? { http: { scheme: get.scheme === 'HTTPS' ? 'HTTPS' : 'HTTP', path: get.path || '/' } } : {}),
    periodMs: Math.max(1, probe?.periodSeconds ?? 10) * 1000,
    failureThreshold: Math.max(1, probe?.failureThreshold ?? 3),
  };
}

/** The port a readiness check connects to: the probe's, the first container port, else the binary's own. */
export function readinessPort(
  c: Pick<V1Container, 'ports' | 'readinessProbe'>,
  kind: 'etcd' | 'kube-apiserver',
  argv: readonly string[],
): number {
  const probe = c.readinessProbe?.tcpSocket?.port ?? c.readinessProbe?.httpGet?.port;
  if (typeof probe === 'number') return probe;
  if (typeof probe === 'string') {
    const named = c.ports?.find((p) => p.name === probe)?.containerPort;
    if (named) return named;
    if (/^\d+$/.test(probe)) return Number(probe);
  }
  const first = c.ports?.[0]?.containerPort;
  if (first) return first;
  if (kind === 'kube-apiserver') return Number(flagValue(argv, 'secure-port') ?? 6443) || 6443;
  const url = flagValue(argv, 'listen-client-urls')?.split(',')[0];
  const port = url ? /:(\d+)\/?$/.exec(url)?.[1] : undefined;
  return port ? Number(port) : 2379;
}
