/** The restore plan in words, as `fleetdeck restore` prints it and the Day 2 page shows it (names and counts, never data). */
import { changeText } from './changes.js';
import { planCounts, type PlannedObject } from './restore.js';

/** Changed fields listed per update; more are counted. */
const SHOWN_CHANGES = 8;

const VERB: Record<PlannedObject['action'], string> = { create: 'create', update: 'update', unchanged: 'unchanged' };

/**
 * The plan: one line per object that changes, under an update the fields it changes (value now →
 * after the restore), and the counts (unchanged objects are counted, not listed).
 */
export function planText(plan: readonly PlannedObject[], file: string, context: string): string {
  const c = planCounts(plan);
  const lines = [
    `Restore of ${file} into the control plane (context ${context}):`,
    `  ${c.create} to create, ${c.update} to update, ${c.unchanged} unchanged.`,
  ];
  for (const p of plan) {
    if (p.action === 'unchanged') continue;
    lines.push(`  ${VERB[p.action].padEnd(6)} ${p.ref}`);
    const changes = p.changes ?? [];
    for (const c of changes.slice(0, SHOWN_CHANGES)) lines.push(`           ${changeText(c)}`);
    if (changes.length > SHOWN_CHANGES)
      lines.push(`           … and ${changes.length - SHOWN_CHANGES} more field(s) (-o json lists them all)`);
  }
  return lines.join('\n');
}
