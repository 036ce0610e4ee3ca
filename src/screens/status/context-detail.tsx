import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { truncate, useTheme, width as textWidth } from '../../components/theme/index.js';
import type { FleetStore } from '../../store/fleet-store.js';
import type { LogTarget } from '../../store/log-target.js';
import type { StatusNav } from './status-nav.js';
import { detailHeader, type DetailHeader } from './detail/detail-header.js';
import { EventsSection } from './detail/events-section.js';
import { InfoSection } from './detail/info-section.js';
import { NodesSection } from './detail/nodes-section.js';
import { PodsSection } from './detail/pods-section.js';
import { SectionTabs } from './detail/section-tabs.js';
import type { SectionProps } from './detail/section-props.js';

export interface ContextDetailProps {
  store: FleetStore;
  name: string;
  /** Which section, its filter, whether a row is expanded. */
  state: StatusNav;
  /** Its keys listen (the tab in front, no filter being typed). */
  active: boolean;
  /** `l` on a pod's row. */
  onOpenLogs?: ((target: LogTarget) => void) | undefined;
  height: number;
  width: number;
}

/** Lines above the section: the title and the section tabs. */
const HEAD_LINES = 2;

/** One context, live: a title line, the section tabs (Info, Nodes, Pods, Events), the open section. */
export function ContextDetail({ store, name, state, active, height, width, onOpenLogs }: ContextDetailProps) {
  const theme = useTheme();
  const header = useStore(
    store,
    useShallow((s) => {
      const ctx = s.status.contexts[name];
      return ctx ? detailHeader(ctx, s.fleet) : undefined;
    }),
  );

  if (!header) {
    return (
      <Box flexDirection="column">
        <Text color={theme.color('warn')}>{theme.text(`Context ${name} is no longer in the kubeconfig.`)}</Text>
        <Text dimColor>press esc to go back</Text>
      </Box>
    );
  }
  const props: SectionProps = {
    store,
    name,
    filter: state.sectionFilter,
    filtering: state.filtering,
    expanded: state.expanded,
    height: Math.max(2, height - HEAD_LINES),
    width,
    isActive: active,
    onOpenLogs,
  };
  const key = `${name}/${state.section}`;
  return (
    <Box flexDirection="column">
      <TitleLine name={name} header={header} width={width} />
      <SectionTabs active={state.section} header={header} />
      {state.section === 'info' ? (
        <InfoSection key={key} {...props} />
      ) : state.section === 'nodes' ? (
        <NodesSection key={key} {...props} />
      ) : state.section === 'pods' ? (
        <PodsSection key={key} {...props} />
      ) : (
        <EventsSection key={key} {...props} />
      )}
    </Box>
  );
}

/** "kind-workload-1  reachable (12 ms) · workload · v1.30.2", cut to the width. */
function TitleLine({ name, header, width }: { name: string; header: DetailHeader; width: number }) {
  const theme = useTheme();
  const title = truncate(theme.text(name), Math.max(8, width - 20), theme.ellipsis);
  let room = width - textWidth(title) - 2;
  const reach = truncate(theme.text(header.reachability), room, theme.ellipsis);
  room -= textWidth(reach);
  const rest = [header.role, header.version]
    .filter(Boolean)
    .map((s) => ` ${theme.separator} ${s}`)
    .join('');
  return (
    <Text>
      <Text bold color={theme.color('accent')}>
        {title}
      </Text>
      {'  '}
      <Text color={theme.color(header.tone)}>{reach}</Text>
      <Text dimColor>{truncate(theme.text(rest), Math.max(0, room), theme.ellipsis)}</Text>
    </Text>
  );
}
