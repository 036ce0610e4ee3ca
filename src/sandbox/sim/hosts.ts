import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { V1ContainerPort, V1Service } from '@kubernetes/client-node';

/*
 * Names as a cluster's DNS would answer them, for the processes the sandbox runs: a hosts file
 * per cluster, bind-mounted over /etc/hosts in each process's own mount namespace.
 */

/** A pod whose processes run for real, as the network knows it. */
export interface PodAddress {
  uid: string;
  namespace: string;
  name: string;
  labels: Record<string, string>;
  /** spec.hostname and spec.subdomain (StatefulSet pods have both). */
  hostname?: string;
  subdomain?: string;
  /** The pod's own loopback address: its processes listen on it. */
  ip: string;
  ready: boolean;
  ports: V1ContainerPort[];
}

export interface HostsEntry {
  ip: string;
  names: string[];
}

export const svcKey = (svc: V1Service) => `${svc.metadata?.namespace ?? ''}/${svc.metadata?.name ?? ''}`;

export function isHeadless(svc: V1Service): boolean {
  return svc.spec?.clusterIP === 'None';
}

/** True when the Service's selector picks the pod (a Service without selector picks nothing). */
export function selects(svc: V1Service, pod: Pick<PodAddress, 'namespace' | 'labels'>): boolean {
  const selector = svc.spec?.selector;
  if (!selector || Object.keys(selector).length === 0) return false;
  if (pod.namespace !== svc.metadata?.namespace) return false;
  return Object.entries(selector).every(([k, v]) => pod.labels[k] === v);
}

/**
 * The names cluster DNS would answer for these Services: a headless Service's name resolves
 * to its pods' own addresses (ready ones, or all with publishNotReadyAddresses) and
 * `<pod hostname>.<svc>.<ns>.svc` to each pod; any other Service's name to its virtual
 * address (`vips`, by `<ns>/<name>`), where the sandbox forwards its ports. Both with and
 * without the `.cluster.local` suffix.
 */
export function serviceHostEntries(
  services: readonly V1Service[],
  pods: readonly PodAddress[],
  vips: ReadonlyMap<string, string>,
  domain = 'cluster.local',
): HostsEntry[] {
  const out: HostsEntry[] = [];
  const dns = (prefix: string) => [`${prefix}.svc`, `${prefix}.svc.${domain}`];
  for (const svc of services) {
    const name = svc.metadata?.name ?? '';
    const ns = svc.metadata?.namespace ?? '';
    if (isHeadless(svc)) {
      for (const pod of pods) {
        if (!selects(svc, pod) || !(pod.ready || svc.spec?.publishNotReadyAddresses)) continue;
        const host = pod.hostname && pod.subdomain === name ? pod.hostname : pod.name;
        out.push({ ip: pod.ip, names: [...dns(`${name}.${ns}`), ...dns(`${host}.${name}.${ns}`)] });
      }
      continue;
    }
    const vip = vips.get(svcKey(svc));
    if (vip) out.push({ ip: vip, names: dns(`${name}.${ns}`) });
  }
  return out;
}

/** A hosts file: localhost first, then one line per entry (sorted, duplicates dropped). */
export function renderHosts(entries: readonly HostsEntry[], title: string): string {
  const lines = entries
    .filter((e) => e.names.length > 0)
    .map((e) => `${e.ip}\t${e.names.join(' ')}`)
    .sort();
  return `${[`# ${title}`, '127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', ...new Set(lines)].join('\n')}\n`;
}

let unshareUsable: boolean | undefined;

/** Whether processes can get their own mount namespace (root, util-linux `unshare`). */
export function canUnshare(): boolean {
  if (unshareUsable === undefined) {
    const r = spawnSync('unshare', ['--mount', '--propagation', 'private', 'true'], { stdio: 'ignore', timeout: 10_000 });
    unshareUsable = r.status === 0;
  }
  return unshareUsable;
}

/**
 * Rewrites a hosts file in place (same inode: it is bind-mounted into running processes'
 * mount namespaces, where a new file would not be seen). Written over the old content, then
 * cut to length, so a reader never finds it empty.
 */
export function writeInPlace(file: string, content: string): void {
  const buf = Buffer.from(content);
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
  try {
    fs.writeSync(fd, buf, 0, buf.length, 0);
    fs.ftruncateSync(fd, buf.length);
  } finally {
    fs.closeSync(fd);
  }
}
