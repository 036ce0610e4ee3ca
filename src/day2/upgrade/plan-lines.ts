/** The plan of an upgrade as lines of text (the command prints them; a screen can show them). */
import type { UpgradePlan } from './targets.js';

const MARK = { ok: '[ok]', warn: '[warn]', fail: '[fail]' } as const;
const WORD = { create: 'create', update: 'change', remove: 'remove', unchanged: 'unchanged' } as const;

function counts(plan: UpgradePlan): string {
  const n = (a: string) => plan.objects.filter((o) => o.action === a).length;
  return `${n('update')} to change, ${n('create')} to create, ${n('remove')} to remove, ${n('unchanged')} unchanged`;
}

/** Every line of the plan: what goes where, the objects that change, images, support matrix, skew, order. */
export function planLines(plan: UpgradePlan, hosting: string): string[] {
  const out: string[] = [];
  const from = plan.from ? `${plan.from.source} (recorded ${plan.from.recordedAt})` : 'the objects in place (no bundle recorded yet)';
  const to = plan.rollback ? `${plan.to.source} (recorded ${plan.to.recordedAt ?? '?'})` : plan.to.source;
  out.push(`Plan: ${plan.rollback ? 'roll back' : 'upgrade'} the control plane in ${hosting} (namespace ${plan.namespace}) and its agents`);
  out.push(`      from ${from}`);
  out.push(`      to   ${to}`);
  out.push(`Objects: ${counts(plan)}`);
  for (const o of plan.objects.filter((x) => x.action !== 'unchanged')) out.push(`  ${WORD[o.action].padEnd(7)} ${o.context}: ${o.ref}`);
  out.push(plan.images.length ? 'Images:' : 'Images: none change');
  for (const i of plan.images)
    out.push(`  ${i.context}: ${i.workload} ${i.container}: ${i.from ?? '(new container)'} → ${i.to ?? '(removed)'}`);
  out.push(`Support matrix: Nova ${plan.support.nova ?? '(unknown)'} supports Kubernetes ${plan.support.range ?? '(not in the matrix)'}`);
  for (const c of plan.support.clusters) out.push(`  ${MARK[c.state]} ${c.clusterName} (${c.context}): ${c.detail}`);
  out.push(plan.skew.length ? 'Version skew:' : 'Version skew: no versioned image to check');
  for (const s of plan.skew) out.push(`  ${MARK[s.state]} ${s.rule}: ${s.detail}`);
  const comp = plan.components.map((c) => `${c.label}${c.changes ? '' : ' (unchanged)'}`).join(', ');
  const agents = plan.agents.map((a) => `${a.cluster}${a.canary ? ' (canary)' : ''}${a.changes ? '' : ' (unchanged)'}`).join(', ');
  out.push(`Order: ${comp}, each followed by the health gate; then the agents: ${agents || 'no workload cluster'}`);
  return out;
}
