import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { kubeletSkew, kubeletVersions, nodeCounts } from '../../../store/selectors.js';
import { NODE_COLUMNS, nodeKey, nodePane, nodeRows, nodesLine, nodeText } from './node-rows.js';
import { filterRows } from './row-filter.js';
import { RowSection } from './row-section.js';
import type { SectionProps } from './section-props.js';
import { Unavailable } from './unavailable.js';

/** Every node: readiness (why not, under the row), zone, roles, kubelet, cordoned and version skew. */
export function NodesSection({ store, name, ...view }: SectionProps) {
  const { filter, width } = view;
  const { nodes, version } = useStore(
    store,
    useShallow((s) => ({ nodes: s.status.contexts[name]?.nodes, version: s.status.contexts[name]?.version })),
  );
  const derived = useMemo(() => {
    const ctx = store.getState().status.contexts[name];
    if (!ctx || !nodes) return undefined;
    const view = { ...ctx, nodes, version };
    const skew = kubeletSkew(view);
    return { rows: nodeRows(nodes.items, skew), line: nodesLine(nodeCounts(view), kubeletVersions(view), skew.length) };
  }, [store, name, nodes, version]);
  if (!nodes || !derived || nodes.forbidden !== undefined || !nodes.synced)
    return <Unavailable forbidden={nodes?.forbidden} what="nodes" width={width} isActive={view.isActive} />;
  const rows = filterRows(derived.rows, filter, nodeText);
  return (
    <RowSection
      rows={rows}
      total={derived.rows.length}
      columns={NODE_COLUMNS}
      rowKey={nodeKey}
      note={{ column: 'ready', text: (r) => (r.node.ready ? undefined : (r.node.notReadyReason ?? 'NotReady')), color: 'fail' }}
      footer={(view) =>
        filter.trim()
          ? `${rows.length} of ${derived.rows.length} nodes match`
          : view.overflow
            ? `rows ${view.start + 1}–${view.end} of ${view.total}`
            : undefined
      }
      pane={nodePane}
      top={[derived.line]}
      empty="No nodes registered: workloads cannot be scheduled."
      {...view}
    />
  );
}
