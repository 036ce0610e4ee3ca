import { wrap } from '../../components/theme/index.js';
import type { CsrSummary } from '../../kube/csr/index.js';
import { ageOf, subjectText } from '../../report/csr-lines.js';

export interface BlockLine {
  text: string;
  kind: 'head' | 'detail' | 'warning';
}

/**
 * One pending CSR as the panel shows it (before truncation to the width): name, requester and
 * age; signer and usages; subject and SANs; then each warning on its own line.
 */
export function csrBlock(c: CsrSummary, now = Date.now(), width = Infinity): BlockLine[] {
  const sans = [...c.dnsNames, ...c.ipAddresses];
  // Warnings wrap (they are the point); the other lines are cut at the width.
  const warning = (w: string): BlockLine[] =>
    (Number.isFinite(width) ? wrap(w, Math.max(10, width - 2)) : [w]).map((t, i) => ({
      kind: 'warning',
      text: `${i === 0 ? '‼' : ' '} ${t}`,
    }));
  return [
    { kind: 'head', text: `${c.name}  from ${c.requester || '?'}  age ${ageOf(c.created, now)}` },
    { kind: 'detail', text: `signer  ${c.signer || '?'}` },
    { kind: 'detail', text: `usages  ${c.usages.join(', ') || '-'}` },
    { kind: 'detail', text: `subject ${subjectText(c)}  SANs ${sans.join(', ') || '-'}` },
    ...c.warnings.flatMap(warning),
  ];
}

/**
 * The first CSR to draw so that the selected one is fully shown in `room` lines: as many before
 * it as fit, the selected one last if need be.
 */
export function firstShown(sizes: readonly number[], selected: number, room: number, previousFirst = 0): number {
  if (sizes.length === 0) return 0;
  const sel = Math.max(0, Math.min(selected, sizes.length - 1));
  let first = Math.min(previousFirst, sel);
  const span = (a: number) => sizes.slice(a, sel + 1).reduce((s, n) => s + n, 0);
  while (first < sel && span(first) > room) first++;
  return first;
}
