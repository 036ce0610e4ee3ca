/** The estimate as text in the seed's shape, and as a values file (the inventory's text: describe.ts). */
import type { Catalogue } from '../../storage/catalogue.js';
import type { Estimate } from '../../storage/estimate.js';
import { formatGBAmount } from '../../storage/units.js';
import { REMINDER } from './estimate-words.js';

/** The estimate's lines after the inventory: features, pools, available, sizes, required, verdict, reminder. */
export function estimateLines(catalogue: Catalogue, est: Estimate): string[] {
  const on = new Set(est.features);
  const lines: string[] = [];
  lines.push(`Features (catalogue ${catalogue.name}):`);
  const width = Math.max(...catalogue.features.map((f) => f.label.length));
  for (const f of catalogue.features) lines.push(`  Enable ${f.label.padEnd(width)} : ${on.has(f.name) ? 'Yes' : 'No'}`);
  lines.push(est.poolReason);
  lines.push(`Available: Shared ${est.available.shared} GB, Unshared ${est.available.unshared} GB`);
  if (est.perNode.length > 1) {
    const w = Math.max(...est.perNode.map((n) => n.node.length));
    for (const n of est.perNode) lines.push(`  ${n.node.padEnd(w)}  Shared ${n.available.shared} GB, Unshared ${n.available.unshared} GB`);
  }
  if (est.skipped.length) lines.push(`Not counted (no volume group or disk reported): ${est.skipped.join(', ')}`);
  lines.push('');
  lines.push('Volumes:');
  const lw = Math.max(0, ...est.volumes.map((v) => v.label.length + 5));
  const nw = Math.max(0, ...est.volumes.map((v) => formatGBAmount(v.gb).length));
  for (const v of est.volumes) lines.push(`  ${`${v.label} (GB)`.padEnd(lw)} : ${formatGBAmount(v.gb).padEnd(nw)}  ${v.kind}, ${v.name}`);
  if (est.volumes.length === 0) lines.push('  none (no feature enabled)');
  lines.push(`Required: Shared ${formatGBAmount(est.required.shared)} GB, Unshared ${formatGBAmount(est.required.unshared)} GB`);
  lines.push(est.verdict);
  lines.push(REMINDER);
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Values file

/** A size as a Kubernetes quantity: GB here are GiB, so 10 → "10Gi", 2.5 → "2.5Gi". */
export function quantity(gb: number): string {
  return `${formatGBAmount(gb)}Gi`;
}

/**
 * The chosen configuration as Helm-style values: the catalogue, the pools, every feature
 * (enabled or not) and each enabled volume's size, kind and pool.
 */
export function valuesOf(catalogue: Catalogue, est: Estimate): { storage: Record<string, unknown> } {
  const enabled = new Set(est.features);
  return {
    storage: {
      catalogue: catalogue.name,
      pools: { ...(est.pools.shared ? { shared: est.pools.shared } : {}), ...(est.pools.unshared ? { unshared: est.pools.unshared } : {}) },
      features: Object.fromEntries(catalogue.features.map((f) => [f.name, enabled.has(f.name)])),
      volumes: Object.fromEntries(
        est.volumes.map((v) => [
          v.name,
          { size: quantity(v.gb), sizeGB: v.gb, kind: v.kind, ...(est.pools[v.kind] ? { pool: est.pools[v.kind] } : {}) },
        ]),
      ),
      required: { sharedGB: est.required.shared, unsharedGB: est.required.unshared },
    },
  };
}
