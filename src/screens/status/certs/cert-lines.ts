/**
 * The Certificates view's lines (pure): the inventory `fleetdeck certs` prints, as checklist
 * rows grouped by where the certificates are — √/‼/✗ by the same rule (residual time against
 * the warning window), the name, the residual time and expiry date, who uses it.
 */
import type { CheckItem } from '../../../checklist/checklist.js';
import type { CertSources } from '../../../kube/certs/cert-sources.js';
import { type CertGroup, type CertInventory, type CertRow, certInventory, certState, residual } from '../../../report/certs/inventory.js';
import type { DetailLine } from '../detail-lines.js';

/** A name column wider than this is cut (the pane shows it whole). */
const NAME_MAX = 22;
/** YYYY-MM-DD */
const DATE_WIDTH = 10;

const GROUPS: readonly { group: CertGroup; title: (namespace: string) => string }[] = [
  { group: 'control-plane', title: (ns) => `Control plane (Secrets in namespace ${ns} of the hosting context)` },
  { group: 'agent-init', title: () => "Agents' init kubeconfig (each workload context)" },
  { group: 'kubeconfig', title: () => "Kubeconfig client certificates (every context's user)" },
];

/** A row's id, which the cursor follows when the rows are read again. */
export const certRowId = (r: CertRow) => `${r.group}:${r.name}:${r.usedBy}`;

const day = (ms: number | undefined) => (ms === undefined ? '' : new Date(ms).toISOString().slice(0, 10));

/** "364d  2027-11-26  context kind-cp"; a row without a certificate says why instead. */
function detailOf(r: CertRow, now: number, residualWidth: number): string {
  if (r.problem) return `${r.problem}  ${r.usedBy}`;
  // A key without expiry has no date: its USED BY stays in the column of the others'.
  return `${residual(r, now).padEnd(residualWidth)}  ${day(r.notAfter).padEnd(DATE_WIDTH)}  ${r.usedBy}`;
}

/** The columns' widths: the longest name (up to NAME_MAX), the longest residual time. */
export interface CertColumns {
  name: number;
  residual: number;
}

export function certColumns(rows: readonly CertRow[], now: number): CertColumns {
  const dated = rows.filter((r) => !r.problem);
  return {
    name: Math.min(NAME_MAX, Math.max(4, ...rows.map((r) => r.name.length))),
    residual: Math.max(0, ...dated.map((r) => residual(r, now).length)),
  };
}

export function certItem(r: CertRow, now: number, warnDays: number, columns: CertColumns): CheckItem {
  const name = r.name.length > columns.name ? `${r.name.slice(0, columns.name - 1)}…` : r.name.padEnd(columns.name);
  return { id: certRowId(r), label: name, state: certState(r, now, warnDays), detail: detailOf(r, now, columns.residual) };
}

export interface CertPage {
  inventory: CertInventory;
  lines: DetailLine[];
  /** The rows in the order their lines show (the cursor's rows). */
  rows: CertRow[];
}

/** The page: a heading per group that has rows, a check line per certificate, then the users that hold none. */
export function certPage(sources: CertSources, now: number, warnDays: number): CertPage {
  const inventory = certInventory(sources);
  const columns = certColumns(inventory.rows, now);
  const lines: DetailLine[] = [];
  const rows: CertRow[] = [];
  for (const { group, title } of GROUPS) {
    const inGroup = inventory.rows.filter((r) => r.group === group);
    if (inGroup.length === 0) continue;
    if (lines.length) lines.push({ kind: 'blank' });
    lines.push({ kind: 'heading', text: title(sources.namespace) });
    for (const r of inGroup) {
      rows.push(r);
      lines.push({ kind: 'check', line: { kind: 'item', item: certItem(r, now, warnDays, columns), depth: 0 } });
    }
  }
  if (inventory.skipped.length) {
    lines.push({ kind: 'blank' });
    const list = inventory.skipped.map((s) => `${s.context} (${s.method})`).join(', ');
    lines.push({ kind: 'text', text: `not certificate-based, not listed: ${list}` });
  }
  return { inventory, lines, rows };
}
