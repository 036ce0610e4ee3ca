import type { Column } from '../../../components/table/index.js';
import type { KubeletSkew } from '../../../store/selectors.js';
import type { NodeCounts } from '../../../store/types.js';
import type { NodeSummary } from '../../../kube/nodes/nodes.js';
import type { Pane } from './row-pane.js';

/** A node with what is wrong with it besides readiness. */
export interface NodeRow {
  node: NodeSummary;
  /** Why its kubelet is outside the supported version skew. */
  skew?: KubeletSkew | undefined;
}

/** Nodes by name, each with its skew problem if any. */
export function nodeRows(items: Record<string, NodeSummary>, skew: readonly KubeletSkew[]): NodeRow[] {
  const bySkew = new Map(skew.map((s) => [s.node, s]));
  return Object.values(items)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((node) => ({ node, skew: bySkew.get(node.name) }));
}

function flags(r: NodeRow): string {
  const out: string[] = [];
  if (r.node.unschedulable) out.push('cordoned');
  if (r.skew) out.push('version skew');
  return out.join(', ') || '-';
}

/** What the / filter looks through. */
export function nodeText(r: NodeRow): string {
  const { node } = r;
  return `${node.name} ${node.ready ? 'Ready' : 'NotReady'} ${node.notReadyReason ?? ''} ${node.zone ?? ''} ${node.roles.join(',')} ${node.kubeletVersion ?? ''} ${flags(r)}`;
}

export const nodeKey = (r: NodeRow) => r.node.name;

/** NAME, READY, ZONE, ROLES, KUBELET, FLAGS (cordoned, version skew). */
export const NODE_COLUMNS: readonly Column<NodeRow>[] = [
  { key: 'name', header: 'NAME', min: 12, max: 48, shrink: 2, cut: 'middle', value: (r) => r.node.name },
  {
    key: 'ready',
    header: 'READY',
    min: 5,
    value: (r) => (r.node.ready ? 'Ready' : 'NotReady'),
    color: (r) => (r.node.ready ? 'ok' : 'fail'),
  },
  { key: 'zone', header: 'ZONE', min: 4, max: 24, shrink: 1, value: (r) => r.node.zone ?? '-' },
  { key: 'roles', header: 'ROLES', min: 5, max: 24, shrink: 1, value: (r) => r.node.roles.join(',') || '-' },
  {
    key: 'kubelet',
    header: 'KUBELET',
    min: 7,
    max: 20,
    shrink: 1,
    value: (r) => r.node.kubeletVersion ?? '-',
    color: (r) => (r.skew ? 'warn' : undefined),
  },
  { key: 'flags', header: 'FLAGS', min: 5, shrink: 3, value: flags, color: (r) => (flags(r) === '-' ? undefined : 'warn') },
];

/** "4 nodes · 3 ready · 1 cordoned · kubelet v1.31.0 ×3, v1.30.2 ×1" */
export function nodesLine(c: NodeCounts, kubelets: readonly { version: string; count: number }[], skewed: number): string {
  const parts = [`${c.total} node${c.total === 1 ? '' : 's'}`, `${c.ready} ready`];
  if (c.cordoned) parts.push(`${c.cordoned} cordoned`);
  if (kubelets.length) parts.push(`kubelet ${kubelets.map((k) => `${k.version} ×${k.count}`).join(', ')}`);
  if (skewed) parts.push(`${skewed} skewed`);
  return parts.join(' · ');
}

export function nodePane(r: NodeRow): Pane {
  const { node } = r;
  const paragraphs = [node.ready ? 'Ready' : `NotReady: ${node.notReadyReason ?? 'no reason given'}`];
  if (node.unschedulable) paragraphs.push('Cordoned: no new pods are scheduled here.');
  if (r.skew) paragraphs.push(r.skew.problem);
  const facts = `zone ${node.zone ?? 'none'} · roles ${node.roles.join(', ') || 'none'} · kubelet ${node.kubeletVersion ?? 'unknown'}`;
  return { title: node.name, facts, paragraphs };
}
