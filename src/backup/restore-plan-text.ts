/** The restore plan in words, as `fleetdeck restore` prints it and the Day 2 page shows it (names and counts, never data). */
import { planCounts, type PlannedObject } from './restore.js';

const VERB: Record<PlannedObject['action'], string> = { create: 'create', update: 'update', unchanged: 'unchanged' };

/** The plan: one line per object that changes, and the counts (unchanged objects are counted, not listed). */
export function planText(plan: readonly PlannedObject[], file: string, context: string): string {
  const c = planCounts(plan);
  const lines = [
    `Restore of ${file} into the control plane (context ${context}):`,
    `  ${c.create} to create, ${c.update} to update, ${c.unchanged} unchanged.`,
  ];
  for (const p of plan) if (p.action !== 'unchanged') lines.push(`  ${VERB[p.action].padEnd(6)} ${p.ref}`);
  return lines.join('\n');
}
