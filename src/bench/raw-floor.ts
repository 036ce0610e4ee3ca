/**
 * The raw-transfer floor of a one-shot status: for every context, the same list GETs that
 * `fleetdeck status` makes (src/kube/fleet/monitor.ts nodes, src/kube/pods/pods.ts pods, src/kube/events/events.ts
 * Warning events; each from the watch cache, `resourceVersion=0`, see listJsonPaged), fetched by
 * one `curl` with `--parallel` (every transfer started at once, gzip accepted as fleetdeck
 * accepts it, the bodies thrown away) with each context's own CA, client certificate and key or
 * token from the kubeconfig. What fleetdeck adds above it — its start, the probe of each server,
 * parsing and summarising, the report — is its overhead.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configForContext, loadKubeconfig } from '../kube/config/kubeconfig.js';
import { LIST_PAGE_SIZE } from '../kube/watch/list.js';

export const CURL = process.env.FLEETDECK_BENCH_CURL ?? '/usr/bin/curl';

const PROTOBUF = 'application/vnd.kubernetes.protobuf, application/json';
const JSON_ONLY = 'application/json';

/** The lists of one context, as fleetdeck's one-shot asks for them (nodes and pods in protobuf, see listProtoPaged). */
export const ONE_SHOT_LISTS: readonly { path: string; accept: string }[] = [
  { path: `/api/v1/nodes?resourceVersion=0&limit=${LIST_PAGE_SIZE}`, accept: PROTOBUF },
  { path: `/api/v1/pods?resourceVersion=0&limit=${LIST_PAGE_SIZE}`, accept: PROTOBUF },
  {
    path: `/api/v1/events?fieldSelector=${encodeURIComponent('type=Warning')}&resourceVersion=0&limit=${LIST_PAGE_SIZE}`,
    accept: JSON_ONLY,
  },
];

export interface RawRun {
  ms: number;
  /** CPU of the curl process (user + system). */
  cpuMs: number;
  requests: number;
  bytes: number;
}

/** CPU time of this process's children that have exited (clock ticks of 10 ms). */
export function childrenCpuMs(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of stat(5) (cutime, cstime); the slice starts at field 3.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Writes what curl needs for each context (PEM files, 0600) and returns its arguments. */
function curlArgs(kubeconfig: string, contexts: readonly string[], dir: string, allJson: boolean): string[] {
  const { config } = loadKubeconfig({ kubeconfig });
  const args = ['--parallel', '--parallel-immediate', '--parallel-max', '1000', '-sS'];
  let groups = 0;
  contexts.forEach((name, i) => {
    const kc = configForContext(config, name);
    const cluster = kc.getCurrentCluster();
    const user = kc.getCurrentUser();
    if (!cluster || !user) throw new Error(`context ${name} has no cluster or user`);
    const file = (what: string, data: string | undefined, from: string | undefined): string | undefined => {
      if (from) return from;
      if (!data) return undefined;
      const p = path.join(dir, `${i}-${what}.pem`);
      fs.writeFileSync(p, Buffer.from(data, 'base64'), { mode: 0o600 });
      return p;
    };
    const tls: string[] = [];
    const ca = file('ca', cluster.caData, cluster.caFile);
    if (ca) tls.push('--cacert', ca);
    if (cluster.skipTLSVerify) tls.push('--insecure');
    const cert = file('cert', user.certData, user.certFile);
    const key = file('key', user.keyData, user.keyFile);
    if (cert && key) tls.push('--cert', cert, '--key', key);
    if (user.token) tls.push('-H', `Authorization: Bearer ${user.token}`);
    // One group per Accept header (curl's options hold for the URLs of their --next group).
    const lists = allJson ? ONE_SHOT_LISTS.map((l) => ({ ...l, accept: JSON_ONLY })) : ONE_SHOT_LISTS;
    for (const accept of new Set(lists.map((l) => l.accept))) {
      if (groups++ > 0) args.push('--next');
      args.push('--compressed', '-H', `Accept: ${accept}`, ...tls);
      for (const list of lists.filter((l) => l.accept === accept))
        args.push('-o', '/dev/null', '-w', '%{http_code} %{size_download}\\n', `${cluster.server.replace(/\/+$/, '')}${list.path}`);
    }
  });
  return args;
}

/**
 * One round: every list of every context fetched at once; wall time from spawn to exit. With
 * `allJson`, every list is asked for as JSON: the floor as it was before fleetdeck asked for
 * nodes and pods in protobuf (to compare with earlier figures).
 */
export async function rawFloorRun(kubeconfig: string, contexts: readonly string[], allJson = false): Promise<RawRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-bench-curl-'));
  try {
    const args = curlArgs(kubeconfig, contexts, dir, allJson);
    const cpu0 = childrenCpuMs();
    const t0 = performance.now();
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(CURL, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }));
    });
    const ms = performance.now() - t0;
    const cpuMs = childrenCpuMs() - cpu0;
    const lines = stdout.trim().split('\n').filter(Boolean);
    const failed = lines.filter((l) => !l.startsWith('200 '));
    if (code !== 0 || failed.length || lines.length !== contexts.length * ONE_SHOT_LISTS.length) {
      throw new Error(`curl exited ${code}: ${failed[0] ?? stderr.trim().split('\n')[0] ?? `${lines.length} answers`}`);
    }
    const bytes = lines.reduce((sum, l) => sum + Number(l.split(' ')[1] ?? 0), 0);
    return { ms, cpuMs, requests: lines.length, bytes };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
