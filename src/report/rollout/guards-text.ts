/** The guard rails of a rollout as the plan and the rollout's detail show them, one line each (pure). */
import { formatDuration } from '../../duration.js';
import { budgetText } from '../../rollout/guards/budget.js';
import { redactUrl } from '../../rollout/guards/notify.js';
import { shownAlertUrl } from '../../rollout/guards/redact.js';
import type { RolloutGuards, RolloutHold } from '../../rollout/guards/types.js';
import { windowText } from '../../rollout/guards/windows.js';

const span = (ms: number) => formatDuration(ms, 'span');
const labels = (l: Record<string, string>) =>
  Object.entries(l)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/** "windows: …", "budget: …", "gates: …", … — only what the rollout sets, plus whether it runs alone in its cluster. */
export function guardLines(g: RolloutGuards | undefined): string[] {
  if (!g) return [];
  const out: string[] = [];
  if (g.windows.length) out.push(`windows: ${g.windows.map(windowText).join('; ')} (no node is taken outside them)`);
  if (g.budget) out.push(`budget: ${budgetText(g.budget)}`);
  const gates = [
    g.alerts
      ? `alerts in ${g.alerts.api === 'prometheus' ? 'Prometheus' : 'Alertmanager'} ${shownAlertUrl(g.alerts.url)}${g.alerts.firingOnly ? ' (firing)' : ''}${g.alerts.match ? `, matching ${g.alerts.match}` : ''}${g.alerts.ignore ? `, ignoring ${g.alerts.ignore}` : ''}`
      : '',
    ...g.blockingPods.map((s) => `pods matching ${s}`),
  ].filter(Boolean);
  if (gates.length) out.push(`gates: ${gates.join('; ')}; checked before each batch, again every ${span(g.recheckMs)} while one holds`);
  const soak = [
    g.soakMs ? `${span(g.soakMs)} after each batch` : '',
    g.prioritySoakMs ? `${span(g.prioritySoakMs)} before a lower priority` : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (soak) out.push(`soak: ${soak}`);
  const deadlines = [
    g.nodeDeadlineMs ? `node ${span(g.nodeDeadlineMs)}` : '',
    g.rolloutDeadlineMs ? `rollout ${span(g.rolloutDeadlineMs)}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (deadlines) out.push(`deadlines: ${deadlines} (passed: the rollout pauses)`);
  if (g.onDrainTimeout !== 'pause')
    out.push(
      `drain timeout: ${g.onDrainTimeout === 'skip' ? 'skip the node (uncordoned, left as it was)' : 'delete the pods left without eviction (PodDisruptionBudgets bypassed)'}`,
    );
  const marks = [
    g.preferNoScheduleTaint ? 'PreferNoSchedule taint on the nodes about to go' : '',
    Object.keys(g.labelsBefore).length ? `labels while worked on: ${labels(g.labelsBefore)}` : '',
    Object.keys(g.labelsAfter).length ? `labels when done: ${labels(g.labelsAfter)}` : '',
  ].filter(Boolean);
  if (marks.length) out.push(`marks: ${marks.join('; ')}`);
  out.push(
    g.concurrent ? 'runs beside other rollouts of the cluster (concurrent)' : 'one rollout at a time in the cluster (waits for any other)',
  );
  if (g.notify) out.push(`notifications: ${g.notify.format} webhook ${redactUrl(g.notify.url)}`);
  return out;
}

/** "held: waiting for the window: opens Sat 02:00 Europe/Berlin (in 3 h 12 min)". */
export const holdText = (h: RolloutHold): string => `held: ${h.reason}`;
