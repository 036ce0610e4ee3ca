/**
 * The bundle in place, recorded in the hosting cluster: a ConfigMap `fleetdeck-bundle` in the
 * control plane's namespace with the rendered objects now applied (`current`) and those applied
 * before (`previous`), gzipped JSON in binaryData. The install writes it; an upgrade moves
 * `current` to `previous`; `fleetdeck upgrade --rollback` re-applies `previous`.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Applier, ApplyResult, Manifest } from '../kube/api/apply.js';
import { type RenderedBundle, sameObjects } from './bundle-render.js';

export const BUNDLE_RECORD = 'fleetdeck-bundle';

/** One recorded rendering, with when it was recorded. */
export interface RecordedBundle extends RenderedBundle {
  recordedAt: string;
}

export interface BundleRecord {
  current?: RecordedBundle;
  previous?: RecordedBundle;
}

const KEYS = { current: 'current.json.gz', previous: 'previous.json.gz' } as const;

const pack = (r: RecordedBundle) => gzipSync(Buffer.from(JSON.stringify(r))).toString('base64');

function unpack(text: string | undefined): RecordedBundle | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(gunzipSync(Buffer.from(text, 'base64')).toString('utf8')) as RecordedBundle;
  } catch {
    return undefined;
  }
}

/** The record's ConfigMap. */
export function recordObject(namespace: string, record: BundleRecord): Manifest {
  const binaryData: Record<string, string> = {};
  const data: Record<string, string> = {};
  for (const k of ['current', 'previous'] as const) {
    const r = record[k];
    if (!r) continue;
    binaryData[KEYS[k]] = pack(r);
    data[k] = `${r.source} (recorded ${r.recordedAt})`;
  }
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: BUNDLE_RECORD,
      namespace,
      labels: { 'app.kubernetes.io/managed-by': 'fleetdeck', 'app.kubernetes.io/part-of': 'nova' },
    },
    data,
    binaryData,
  };
}

/** The record as the cluster has it (empty when there is none). */
export async function readRecord(hosting: Applier, namespace: string): Promise<BundleRecord> {
  const cm = await hosting.read<Manifest & { binaryData?: Record<string, string> }>({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: BUNDLE_RECORD, namespace },
  });
  const current = unpack(cm?.binaryData?.[KEYS.current]);
  const previous = unpack(cm?.binaryData?.[KEYS.previous]);
  return { ...(current ? { current } : {}), ...(previous ? { previous } : {}) };
}

/**
 * The record once `next` is applied: unchanged when it is already current (a re-run after an
 * interruption keeps the bundle before it as `previous`), else the current one becomes previous.
 */
export function nextRecord(record: BundleRecord, next: RenderedBundle, at: Date): BundleRecord {
  if (record.current && sameObjects(record.current, next)) return record;
  return { current: { ...next, recordedAt: at.toISOString() }, ...(record.current ? { previous: record.current } : {}) };
}

/** Records `next` as the bundle in place (server-side apply; `dryRun` writes nothing). */
export async function recordBundle(hosting: Applier, namespace: string, next: RenderedBundle, dryRun = false): Promise<ApplyResult> {
  const record = nextRecord(await readRecord(hosting, namespace), next, new Date());
  return hosting.apply(recordObject(namespace, record), { dryRun });
}
