import { Text } from 'ink';
import { type ComponentType, type ReactNode, useMemo } from 'react';
import { helpOf, type KeyTable } from '../components/key-actions/index.js';
import type { HelpSection } from '../components/help-overlay/index.js';
import { useStore } from 'zustand';
import type { Actions } from '../store/actions.js';
import type { FleetState } from '../store/fleet-store.js';
import type { FeedStatus } from '../store/types.js';
import { type About, Placeholder } from './placeholder.js';
import type { ScreenTab, TabScreenProps } from './tab.js';

export interface FeedGateProps {
  status: FeedStatus;
  /** What is loading ("the rollouts"). */
  what: string;
  children: ReactNode;
}

/** A view once its feed runs; while it loads, a line saying so; if it could not, why. */
export function FeedGate({ status, what, children }: FeedGateProps) {
  if (status === 'on') return <>{children}</>;
  if (typeof status === 'object') return <Text>{status.error}</Text>;
  return <Text>{`loading ${what}…`}</Text>;
}

/** The groups of actions whose feed is started when the tab is shown, and whose slice says how that feed stands. */
export type FeedTabGroup = {
  [K in keyof Actions & keyof FleetState]: FleetState[K] extends { status: FeedStatus }
    ? NonNullable<Actions[K]> extends { show(): void }
      ? K
      : never
    : never;
}[keyof Actions & keyof FleetState];

export interface FeedTabOptions<K extends FeedTabGroup> {
  /** Its actions' group and its slice: the tab's id too. */
  group: K;
  title: string;
  /** What the tab does, shown when its actions are not offered. */
  about: About;
  /** What loads while its feed starts ("the rollouts"). */
  what: string;
  /** Every key table of its views. */
  keys: readonly KeyTable<never>[];
  /** The screen once the feed runs; `own` is its group of the actions, `help` its key tables' help. */
  Screen: ComponentType<TabScreenProps & { own: NonNullable<Actions[K]>; help: readonly HelpSection[] }>;
}

const statusOf = (s: FleetState, group: FeedTabGroup): FeedStatus => (s[group] as { status: FeedStatus }).status;

/** A tab whose screen needs its feed running: what it does while not offered, the loading line, then the screen. */
function FeedTab<K extends FeedTabGroup>({ tab, ...props }: TabScreenProps & { tab: FeedTabOptions<K> }) {
  const status = useStore(props.store, (s) => statusOf(s, tab.group));
  const own = props.actions[tab.group];
  const help = useMemo(() => tab.keys.map((k) => helpOf(k)), [tab]);
  if (!own) return <Placeholder title={tab.title} about={tab.about} width={props.width} height={props.height} />;
  return (
    <FeedGate status={status} what={tab.what}>
      <tab.Screen {...props} own={own as NonNullable<Actions[K]>} help={help} />
    </FeedGate>
  );
}

/** The tab's screen: made once, when its entry is. */
function screenOf<K extends FeedTabGroup>(tab: FeedTabOptions<K>): ComponentType<TabScreenProps> {
  return (props) => <FeedTab {...props} tab={tab} />;
}

/** A tab whose feed starts when it is first shown: its entry, with the screen behind the feed's gate. */
export function feedTab<K extends FeedTabGroup>(tab: FeedTabOptions<K>): ScreenTab {
  return {
    id: tab.group,
    title: tab.title,
    keys: tab.keys,
    Screen: screenOf(tab),
    shown: (actions) => (actions[tab.group] as { show(): void } | undefined)?.show(),
  };
}
