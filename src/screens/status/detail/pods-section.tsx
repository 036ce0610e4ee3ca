import { useStore } from 'zustand';
import { filterRows } from './row-filter.js';
import { phaseLine, podColumns, podKey, podPane, podsFooter, podText } from './pod-rows.js';
import { RowSection } from './row-section.js';
import type { SectionProps } from './section-props.js';
import { Unavailable } from './unavailable.js';
import { useNow } from './use-now.js';

/** Counts by phase, then the pods that need attention, worst first, with why. */
export function PodsSection({ store, name, onOpenLogs, ...view }: SectionProps) {
  const { filter, width } = view;
  const pods = useStore(store, (s) => s.status.contexts[name]?.pods);
  const now = useNow();
  if (!pods || pods.forbidden !== undefined || !pods.synced)
    return <Unavailable forbidden={pods?.forbidden} what="pods" width={width} isActive={view.isActive} />;
  const rows = filterRows(pods.problems, filter, podText);
  return (
    <RowSection
      rows={rows}
      total={pods.problems.length}
      columns={podColumns(now)}
      rowKey={podKey}
      footer={(view) => podsFooter(pods, rows.length, filter, view)}
      pane={(p) => podPane(p, now)}
      top={[phaseLine(pods)]}
      empty={pods.total === 0 ? 'No pods.' : 'Every pod is running and ready (or done).'}
      onLogs={
        onOpenLogs
          ? (p) =>
              onOpenLogs({
                title: `${p.namespace}/${p.name}`,
                context: name,
                namespace: p.namespace,
                pods: [p.name],
                events: { kind: 'Pod', name: p.name, namespace: p.namespace },
              })
          : undefined
      }
      {...view}
    />
  );
}
