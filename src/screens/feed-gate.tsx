import { Text } from 'ink';
import type { ReactNode } from 'react';
import type { FeedStatus } from '../store/types.js';

export interface FeedGateProps {
  status: FeedStatus;
  /** What is loading ("the rollouts"). */
  what: string;
  children: ReactNode;
}

/** A tab's screen once its feed runs; while it loads, a line saying so; if it could not, why. */
export function FeedGate({ status, what, children }: FeedGateProps) {
  if (status === 'on') return <>{children}</>;
  if (typeof status === 'object') return <Text>{status.error}</Text>;
  return <Text>{`loading ${what}…`}</Text>;
}
