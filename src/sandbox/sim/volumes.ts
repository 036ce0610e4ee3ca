import fs from 'node:fs';
import path from 'node:path';
import type { CoreV1Api, V1Container, V1KeyToPath, V1Pod, V1Volume } from '@kubernetes/client-node';
import { isNotFound } from './context.js';
import { expandVars, type MountMapping } from './processes.js';

/** A volume that could not be set up; the message reads as the kubelet's FailedMount event. */
export class MountError extends Error {}

export interface VolumeContext {
  core: CoreV1Api;
  pod: V1Pod;
  /** The pod's directory: volumes go to `<podDir>/volumes/<name>`. */
  podDir: string;
  /** The cluster's directory: persistent volumes go to `<clusterDir>/volumes/<pv name>`. */
  clusterDir: string;
  /** A downward-API fieldRef's value. */
  field(path: string): string | undefined;
}

/** Where the sandbox keeps the data of a persistent volume (or of a claim not bound to one). */
export function persistentVolumeDir(clusterDir: string, pvName: string): string {
  return path.join(clusterDir, 'volumes', pvName);
}

function safeJoin(dir: string, rel: string): string {
  const target = path.resolve(dir, rel);
  if (target !== dir && !target.startsWith(`${dir}${path.sep}`)) throw new MountError(`volume path "${rel}" leaves the volume`);
  return target;
}

function writeFile(dir: string, rel: string, data: Buffer, mode: number): void {
  const file = safeJoin(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  fs.writeFileSync(file, data, { mode });
  fs.chmodSync(file, mode);
}

/** Writes `data` (key → bytes) into `dir`: every key, or the listed items under their paths. */
function writeKeys(dir: string, data: Map<string, Buffer>, items: V1KeyToPath[] | undefined, mode: number, what: string): void {
  if (!items || items.length === 0) {
    for (const [k, v] of data) writeFile(dir, k, v, mode);
    return;
  }
  for (const item of items) {
    const v = data.get(item.key);
    if (!v) throw new MountError(`${what}: key "${item.key}" not found`);
    writeFile(dir, item.path, v, item.mode ?? mode);
  }
}

async function secretData(ctx: VolumeContext, name: string): Promise<Map<string, Buffer> | undefined> {
  try {
    const s = await ctx.core.readNamespacedSecret({ name, namespace: ctx.pod.metadata?.namespace ?? '' });
    const out = new Map<string, Buffer>();
    for (const [k, v] of Object.entries(s.data ?? {})) out.set(k, Buffer.from(v, 'base64'));
    for (const [k, v] of Object.entries(s.stringData ?? {})) out.set(k, Buffer.from(v));
    return out;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function configMapData(ctx: VolumeContext, name: string): Promise<Map<string, Buffer> | undefined> {
  try {
    const c = await ctx.core.readNamespacedConfigMap({ name, namespace: ctx.pod.metadata?.namespace ?? '' });
    const out = new Map<string, Buffer>();
    for (const [k, v] of Object.entries(c.data ?? {})) out.set(k, Buffer.from(v));
    for (const [k, v] of Object.entries(c.binaryData ?? {})) out.set(k, Buffer.from(v, 'base64'));
    return out;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** A fresh, empty directory for a volume whose content the sandbox writes (Secret, ConfigMap, …). */
function freshDir(dir: string, mode: number): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true, mode });
  fs.chmodSync(dir, mode);
}

async function materialize(ctx: VolumeContext, v: V1Volume, dir: string): Promise<string> {
  const failed = (reason: string) => new MountError(`MountVolume.SetUp failed for volume "${v.name}" : ${reason}`);
  if (v.secret) {
    const name = v.secret.secretName ?? '';
    const data = await secretData(ctx, name);
    freshDir(dir, 0o700);
    if (!data) {
      if (v.secret.optional) return dir;
      throw failed(`secret "${name}" not found`);
    }
    writeKeys(dir, data, v.secret.items, 0o600, `secret "${name}"`);
    return dir;
  }
  if (v.configMap) {
    const name = v.configMap.name ?? '';
    const data = await configMapData(ctx, name);
    freshDir(dir, 0o755);
    if (!data) {
      if (v.configMap.optional) return dir;
      throw failed(`configmap "${name}" not found`);
    }
    writeKeys(dir, data, v.configMap.items, v.configMap.defaultMode ?? 0o644, `configmap "${name}"`);
    return dir;
  }
  if (v.persistentVolumeClaim) {
    const claim = v.persistentVolumeClaim.claimName;
    let pv: string | undefined;
    try {
      const pvc = await ctx.core.readNamespacedPersistentVolumeClaim({ name: claim, namespace: ctx.pod.metadata?.namespace ?? '' });
      pv = pvc.spec?.volumeName || undefined;
    } catch (err) {
      if (isNotFound(err)) throw failed(`persistentvolumeclaim "${claim}" not found`);
      throw err;
    }
    const target = persistentVolumeDir(ctx.clusterDir, pv ?? `claim-${ctx.pod.metadata?.namespace ?? ''}-${claim}`);
    fs.mkdirSync(target, { recursive: true, mode: 0o700 });
    return target;
  }
  if (v.projected || v.downwardAPI) {
    freshDir(dir, 0o755);
    for (const source of v.projected?.sources ?? []) {
      if (source.secret) {
        const data = await secretData(ctx, source.secret.name ?? '');
        if (data) writeKeys(dir, data, source.secret.items, 0o600, `secret "${source.secret.name ?? ''}"`);
        else if (!source.secret.optional) throw failed(`secret "${source.secret.name ?? ''}" not found`);
      }
      if (source.configMap) {
        const data = await configMapData(ctx, source.configMap.name ?? '');
        if (data) writeKeys(dir, data, source.configMap.items, 0o644, `configmap "${source.configMap.name ?? ''}"`);
        else if (!source.configMap.optional) throw failed(`configmap "${source.configMap.name ?? ''}" not found`);
      }
      for (const item of source.downwardAPI?.items ?? []) {
        const value = item.fieldRef ? ctx.field(item.fieldRef.fieldPath) : undefined;
        if (value !== undefined) writeFile(dir, item.path, Buffer.from(value), item.mode ?? 0o644);
      }
    }
    for (const item of v.downwardAPI?.items ?? []) {
      const value = item.fieldRef ? ctx.field(item.fieldRef.fieldPath) : undefined;
      if (value !== undefined) writeFile(dir, item.path, Buffer.from(value), item.mode ?? v.downwardAPI?.defaultMode ?? 0o644);
    }
    return dir;
  }
  // emptyDir, and anything else (hostPath included: never the machine's own path) is a
  // directory of the pod's that outlives container restarts.
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  return dir;
}

/**
 * Sets up the pod's volumes under its directory: Secrets (files 0600) and ConfigMaps written
 * out afresh from the API, emptyDirs kept, claims mapped to the directory of their bound
 * volume. Resolves with volume name → local path; rejects with a MountError when a volume
 * cannot be set up (e.g. its Secret does not exist yet).
 */
export async function materializeVolumes(ctx: VolumeContext): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const root = path.join(ctx.podDir, 'volumes');
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  for (const v of ctx.pod.spec?.volumes ?? []) {
    out.set(v.name, await materialize(ctx, v, safeJoin(root, v.name)));
  }
  return out;
}

/** The container's mount paths and the local paths that stand for them (subPath included). */
export function containerMounts(
  c: Pick<V1Container, 'volumeMounts'>,
  volumes: ReadonlyMap<string, string>,
  env: Readonly<Record<string, string>>,
): MountMapping[] {
  const out: MountMapping[] = [];
  for (const m of c.volumeMounts ?? []) {
    const base = volumes.get(m.name);
    if (!base) throw new MountError(`volume "${m.name}" of mount ${m.mountPath} is not defined`);
    const sub = m.subPathExpr ? expandVars(m.subPathExpr, env) : (m.subPath ?? '');
    const hostPath = sub ? safeJoin(base, sub) : base;
    out.push({ mountPath: m.mountPath, hostPath, readOnly: m.readOnly === true });
  }
  return out;
}
