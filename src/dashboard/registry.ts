/**
 * The dashboard's tabs, one entry each: the tab as the screens draw it (its folder under
 * src/screens/<tab>/: id, title, screen, key tables) and the feeds that fill its store slice. The
 * app reads the tab bar, the number keys, the screens, the hints, the help and the keyboard
 * ownership from it; the feeds holder starts every feed listed here. Adding a tab is a screen
 * folder, a feed, a slice and one entry here.
 */
import { approvalsFeed, type ApprovalsFeedOptions } from '../feeds/approvals.js';
import { certsFeed, type CertsFeedFactoryOptions } from '../feeds/certs.js';
import { day2Feed } from '../feeds/day2.js';
import type { Day2FeedOptions } from '../feeds/day2.js';
import type { FeedFactory } from '../feeds/feed.js';
import { installFeed, type InstallFeedOptions } from '../feeds/install/feed.js';
import { logsFeed, type LogsFeedFactoryOptions } from '../feeds/logs.js';
import { type Preflight, prepareFeed } from '../feeds/prepare.js';
import { rolloutsFeed, type RolloutsFeedOptions } from '../feeds/rollouts/feed.js';
import { type StatusFeedOptions, statusFeed } from '../feeds/status-feed.js';
import { storageFeed, type StorageFeedOptions } from '../feeds/storage/feed.js';
import { workloadsFeed, type WorkloadsFeedOptions } from '../feeds/workloads.js';
import { installTab } from '../screens/install/tab.js';
import { logsOverlay } from '../screens/logs/overlay.js';
import { rolloutsTab } from '../screens/rollouts/tab.js';
import { statusTab } from '../screens/status/tab.js';
import { storageTab } from '../screens/storage/tab.js';
import { workloadsTab } from '../screens/workloads/tab.js';
import type { ScreenOverlay, ScreenTab } from '../screens/tab.js';

export interface TabEntry extends ScreenTab {
  feeds: readonly FeedFactory[];
}

export interface OverlayEntry extends ScreenOverlay {
  feeds: readonly FeedFactory[];
}

/** Each feed's options (the dashboard's flags; tests give fakes of the workflows). */
export interface RegistryOptions {
  status?: Omit<StatusFeedOptions, 'store' | 'fleet'>;
  certs?: CertsFeedFactoryOptions;
  approvals?: ApprovalsFeedOptions;
  /** The install wizard: the flags' install (absent: the Install tab does not offer it). */
  install?: InstallFeedOptions;
  preflight?: Preflight;
  day2?: Pick<Day2FeedOptions, 'registry'>;
  rollouts?: RolloutsFeedOptions;
  storage?: StorageFeedOptions;
  logs?: LogsFeedFactoryOptions;
  workloads?: WorkloadsFeedOptions;
}

export interface Registry {
  tabs: readonly TabEntry[];
  overlays: readonly OverlayEntry[];
}

export function registry(o: RegistryOptions = {}): Registry {
  return {
    tabs: [
      { ...statusTab, feeds: [statusFeed(o.status), certsFeed(o.certs), approvalsFeed(o.approvals)] },
      { ...installTab, feeds: [...(o.install ? [installFeed(o.install)] : []), prepareFeed(o.preflight), day2Feed(o.day2)] },
      { ...rolloutsTab, feeds: [rolloutsFeed(o.rollouts)] },
      { ...storageTab, feeds: [storageFeed(o.storage)] },
      { ...workloadsTab, feeds: [workloadsFeed(o.workloads)] },
    ],
    overlays: [{ ...logsOverlay, feeds: [logsFeed(o.logs)] }],
  };
}

/** Every feed of the registry, in its order. */
export function feedsOf(r: Registry): FeedFactory[] {
  return [...r.tabs, ...r.overlays].flatMap((e) => e.feeds);
}
