import { Text } from 'ink';
import type { ComponentType, ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Actions } from '../store/actions.js';
import type { FleetState } from '../store/fleet-store.js';
import type { FeedStatus } from '../store/types.js';
import { type About, Placeholder } from './placeholder.js';
import type { TabScreenProps } from './tab.js';

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

export interface FeedTabOptions<K extends keyof Actions> {
  title: string;
  /** What the tab does, shown when its actions are not offered. */
  about: About;
  /** What loads while its feed starts ("the rollouts"). */
  what: string;
  /** Its actions' group, and its slice's feed status. */
  group: K;
  status: (s: FleetState) => FeedStatus;
  /** The screen once the feed runs; `own` is its group of the actions. */
  Screen: ComponentType<TabScreenProps & { own: NonNullable<Actions[K]> }>;
}

/** A tab whose screen needs its feed running: what it does while not offered, the loading line, then the screen. */
export function FeedTab<K extends keyof Actions>({ tab, ...props }: TabScreenProps & { tab: FeedTabOptions<K> }) {
  const status = useStore(props.store, tab.status);
  const own = props.actions[tab.group];
  if (!own) return <Placeholder title={tab.title} about={tab.about} width={props.width} height={props.height} />;
  return (
    <FeedGate status={status} what={tab.what}>
      <tab.Screen {...props} own={own as NonNullable<Actions[K]>} />
    </FeedGate>
  );
}

/** The screen of a tab whose screen needs its feed running. */
export function feedTab<K extends keyof Actions>(tab: FeedTabOptions<K>): ComponentType<TabScreenProps> {
  return (props) => <FeedTab {...props} tab={tab} />;
}
