/**
 * A rollout's guard rails and its hold as the Rollouts tab shows them (pure): the plan's lines
 * (guardLines) under a heading when there is room, else one line naming them; and a held
 * rollout's two lines: why, and since when.
 */
import type { ColorRole } from '../../components/theme/index.js';
import { formatDuration } from '../../duration.js';
import { guardLines, holdText } from '../../report/rollout/guards-text.js';
import type { RolloutGuards, RolloutHold } from '../../rollout/guards/types.js';
import { timeText } from './rows.js';

export interface ShownLine {
  text: string;
  tone?: ColorRole;
}

const span = (ms: number) => formatDuration(ms, 'span');

/** "guard rails: window, budget 20%, alerts, soak 10m, on drain timeout skip": what the rollout sets, by name. */
export function guardSummary(g: RolloutGuards): string {
  const budget = g.budget
    ? g.budget.percent !== undefined
      ? `${g.budget.percent}%`
      : g.budget.nodes !== undefined
        ? String(g.budget.nodes)
        : ''
    : '';
  const names = [
    g.windows.length === 1 ? 'window' : g.windows.length > 1 ? `${g.windows.length} windows` : '',
    g.budget ? `budget${budget ? ` ${budget}` : ''}` : '',
    g.alerts ? 'alerts' : '',
    g.blockingPods.length ? 'blocking pods' : '',
    g.soakMs ? `soak ${span(g.soakMs)}` : '',
    g.prioritySoakMs ? `priority soak ${span(g.prioritySoakMs)}` : '',
    g.nodeDeadlineMs ? `node deadline ${span(g.nodeDeadlineMs)}` : '',
    g.rolloutDeadlineMs ? `deadline ${span(g.rolloutDeadlineMs)}` : '',
    g.onDrainTimeout !== 'pause' ? `on drain timeout ${g.onDrainTimeout}` : '',
    g.preferNoScheduleTaint ? 'taint' : '',
    Object.keys(g.labelsBefore).length || Object.keys(g.labelsAfter).length ? 'labels' : '',
    g.concurrent ? 'concurrent' : '',
    g.notify ? 'webhook' : '',
  ].filter(Boolean);
  return `guard rails: ${names.length ? names.join(', ') : 'none (one rollout at a time in the cluster)'}`;
}

/** A drain timeout that deletes pods without eviction is shown in red. */
const toneOf = (g: RolloutGuards, text: string): ColorRole | undefined =>
  g.onDrainTimeout === 'force' && (text.startsWith('drain timeout:') || text.startsWith('guard rails:')) ? 'fail' : undefined;

/**
 * The guard rails in at most `room` lines: a heading and guardLines' lines when they fit, else
 * the one line of guardSummary; none for a spec written before guard rails existed.
 */
export function guardRailLines(g: RolloutGuards | undefined, room: number): ShownLine[] {
  if (!g) return [];
  const lines = guardLines(g);
  if (lines.length + 1 <= room) {
    return [{ text: 'Guard rails', tone: 'muted' }, ...lines.map((l) => ({ text: `  ${l}`, tone: toneOf(g, l) ?? ('muted' as const) }))];
  }
  const summary = guardSummary(g);
  return [{ text: summary, tone: toneOf(g, summary) ?? 'muted' }];
}

/** A held rollout: "held: <reason>", then since when, until when (if known) and when it was last checked. */
export function holdLines(hold: RolloutHold, now: number): ShownLine[] {
  const since = Date.parse(hold.since);
  const until = hold.until ? Date.parse(hold.until) : Number.NaN;
  const checked = Date.parse(hold.checkedAt);
  const detail = [
    Number.isFinite(since) ? `held since ${timeText(since, now)} (${span(now - since)})` : '',
    Number.isFinite(until) ? `until ${timeText(until, now)}` : '',
    Number.isFinite(checked) ? `checked ${span(now - checked)} ago` : '',
  ].filter(Boolean);
  return [{ text: holdText(hold), tone: 'warn' }, ...(detail.length ? [{ text: detail.join(' · '), tone: 'muted' as const }] : [])];
}
