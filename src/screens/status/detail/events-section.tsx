import { useMemo } from 'react';
import { useStore } from 'zustand';
import { eventColumns, eventKey, eventPane, eventsFooter, eventText, recentWarnings } from './event-rows.js';
import { filterRows } from './row-filter.js';
import { RowSection } from './row-section.js';
import type { SectionProps } from './section-props.js';
import { Unavailable } from './unavailable.js';
import { useNow } from './use-now.js';

/** The recent Warning events, newest first; Enter shows a message whole. */
export function EventsSection({ store, name, ...view }: SectionProps) {
  const { filter, width } = view;
  const events = useStore(store, (s) => s.status.contexts[name]?.events);
  const now = useNow();
  const warnings = useMemo(() => recentWarnings(events?.warnings ?? []), [events]);
  if (!events || events.forbidden !== undefined || !events.synced)
    return <Unavailable forbidden={events?.forbidden} what="events" width={width} isActive={view.isActive} />;
  const rows = filterRows(warnings, filter, eventText);
  return (
    <RowSection
      rows={rows}
      total={warnings.length}
      columns={eventColumns(now)}
      rowKey={eventKey}
      footer={(view) => eventsFooter(warnings.length, rows.length, filter, view)}
      pane={(e) => eventPane(e, now)}
      empty="No Warning events lately."
      {...view}
    />
  );
}
