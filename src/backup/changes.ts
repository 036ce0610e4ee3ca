/**
 * What an update of the restore changes: the fields where the object as it is live and the object
 * as the restore would leave it (a server-side dry run; bookkeeping and status removed) differ,
 * each with its value before and after. A Secret's data (and annotations) are never shown, only that they change.
 */
import diff from 'microdiff';

export interface FieldChange {
  /** `spec.replicas`, `metadata.labels["app.kubernetes.io/name"]`, `spec.template.spec.containers[0].image`. */
  path: string;
  /** The value now, in JSON (absent when the restore adds the field). */
  from?: string;
  /** The value after the restore, in JSON (absent when the restore removes the field). */
  to?: string;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const VALUE_WIDTH = 60;

function pathText(path: readonly (string | number)[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : PLAIN_KEY.test(p) ? `${i ? '.' : ''}${p}` : `[${JSON.stringify(p)}]`))
    .join('');
}

function valueText(v: unknown): string {
  const s = JSON.stringify(v) ?? 'null';
  return s.length > VALUE_WIDTH ? `${s.slice(0, VALUE_WIDTH - 1)}…` : s;
}

/**
 * A Secret's `data` and `stringData` values are hidden, and its annotations' (kubectl's
 * last-applied-configuration holds the whole Secret, data included).
 */
function hidden(kind: string, path: readonly (string | number)[]): boolean {
  if (kind !== 'Secret') return false;
  return path[0] === 'data' || path[0] === 'stringData' || (path[0] === 'metadata' && path[1] === 'annotations');
}

/** The fields that differ between `live` and `applied`, in the order of the objects' fields. */
export function fieldChanges(kind: string, live: unknown, applied: unknown): FieldChange[] {
  if (typeof live !== 'object' || live === null || typeof applied !== 'object' || applied === null) return [];
  return diff(live as Record<string, unknown>, applied as Record<string, unknown>).map((d) => {
    const secret = hidden(kind, d.path);
    const show = (v: unknown) => (secret ? '(hidden)' : valueText(v));
    const change: FieldChange = { path: pathText(d.path) };
    if (d.type !== 'CREATE') change.from = show(d.oldValue);
    if (d.type !== 'REMOVE') change.to = show(d.value);
    return change;
  });
}

/** One change in words: `spec.replicas: 3 → 2`, `metadata.labels.tier: added "web"`, `spec.paused: removed (was true)`. */
export function changeText(c: FieldChange): string {
  if (c.from === undefined) return `${c.path}: added ${c.to}`;
  if (c.to === undefined) return `${c.path}: removed (was ${c.from})`;
  return `${c.path}: ${c.from} → ${c.to}`;
}
