import type { Column, TableFooter } from '../../../components/table/index.js';
import type { PodPhase, PodProblem, PodsSummary } from '../../../kube/pods/pods.js';
import type { Pane } from './row-pane.js';
import { ago } from '../../../report/relative-time.js';

const PHASES: readonly PodPhase[] = ['Running', 'Pending', 'Failed', 'Succeeded', 'Unknown'];

/** "142 pods: 130 Running · 8 Pending · 2 Failed · 2 Succeeded" (phases with no pod left out). */
export function phaseLine(pods: PodsSummary): string {
  if (pods.total === 0) return 'no pods';
  const phases = PHASES.filter((p) => pods.byPhase[p] > 0).map((p) => `${pods.byPhase[p]} ${p}`);
  return `${pods.total} pod${pods.total === 1 ? '' : 's'}: ${phases.join(' · ')}`;
}

/** What the / filter looks through. */
export function podText(p: PodProblem): string {
  return `${p.namespace}/${p.name} ${p.phase} ${p.reason} ${p.node ?? ''}`;
}

export const podKey = (p: PodProblem) => `${p.namespace}/${p.name}`;

/**
 * NAMESPACE/NAME, PHASE, REASON, RESTARTS, NODE (AGE when there is room). When
 * 80 columns are not enough, NODE gives way first (the row in full names it),
 * then REASON, then the name, each down to a width that still tells rows apart.
 */
export function podColumns(now: number): Column<PodProblem>[] {
  return [
    { key: 'name', header: 'NAMESPACE/NAME', min: 22, max: 48, shrink: 2, value: podKey },
    { key: 'phase', header: 'PHASE', min: 7, max: 9, value: (p) => p.phase, color: (p) => (p.phase === 'Failed' ? 'fail' : 'warn') },
    { key: 'reason', header: 'REASON', min: 22, shrink: 3, value: (p) => p.reason },
    {
      key: 'restarts',
      header: 'RESTARTS',
      min: 8,
      align: 'right',
      value: (p) => String(p.restarts),
      color: (p) => (p.restarts > 0 ? 'warn' : undefined),
    },
    { key: 'node', header: 'NODE', min: 8, max: 30, shrink: 4, value: (p) => p.node ?? '-' },
    {
      key: 'age',
      header: 'AGE',
      min: 3,
      max: 5,
      align: 'right',
      drop: 1,
      value: (p) => (p.createdAt !== undefined ? ago(p.createdAt, now) : '-'),
    },
  ];
}

/** "showing 20 of 37 needing attention" — the list is capped, the count is not. */
export function podsFooter(pods: PodsSummary, matched: number, filter: string, view: TableFooter): string {
  const listed = pods.problems.length;
  const head = filter.trim()
    ? `${matched} of ${listed} listed match · ${pods.problemCount} need attention in all`
    : `showing ${listed} of ${pods.problemCount} needing attention`;
  return view.overflow ? `${head} · rows ${view.start + 1}–${view.end}` : head;
}

export function podPane(p: PodProblem, now: number): Pane {
  const facts = [
    p.node ? `node ${p.node}` : 'no node',
    `${p.restarts} restart${p.restarts === 1 ? '' : 's'}`,
    ...(p.createdAt !== undefined ? [`created ${ago(p.createdAt, now)} ago`] : []),
  ];
  return { title: `${p.namespace}/${p.name}`, facts: facts.join(' · '), paragraphs: [`${p.phase}: ${p.reason}`] };
}
