/**
 * A rollout's guard rails, as plain data kept in its spec (and so in its record in the cluster):
 * when it may take a node (maintenance windows, a disruption budget, gates on alerts and on
 * pods), how it paces itself (soak times, deadlines, what a drain timeout does), what it marks
 * on nodes (a PreferNoSchedule taint, labels), whether another rollout may run in the cluster at
 * the same time, whom it tells (a webhook), and where its metrics are served.
 */

export const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** kured's --reboot-days/--start-time/--end-time/--time-zone: the days the window opens on, HH:MM to HH:MM in the zone (an end before the start ends the next day). */
export interface MaintenanceWindow {
  days: Weekday[];
  /** `HH:MM`, 24-hour. */
  start: string;
  /** `HH:MM`; `24:00` is the end of the day; an end at or before the start ends on the next day. */
  end: string;
  /** An IANA time zone (default UTC). */
  timeZone: string;
}

/** How many nodes may be unavailable at once: a count, or a percentage of the nodes counted (rounded up, as Karpenter). */
export interface BudgetSize {
  nodes?: number;
  percent?: number;
}

/** Karpenter's budgets: a size, and sizes that apply on a cron schedule for a duration. */
export interface DisruptionBudget extends BudgetSize {
  /** What the percentage is of, and which nodes count: every node of the cluster, or the rollout's nodes. */
  of: 'cluster' | 'selected';
  /** While a schedule is active its size applies instead (the smallest of the active ones). */
  schedules: { cron: string; durationMs: number; timeZone: string; size: BudgetSize }[];
}

/** kured's --prometheus-url and --alert-filter-regexp, and Alertmanager's API. */
export interface AlertGate {
  url: string;
  api: 'prometheus' | 'alertmanager';
  /** Alerts whose name matches are ignored (kured's --alert-filter-regexp). */
  ignore?: string;
  /** When given, only alerts whose name matches block. */
  match?: string;
  /** Only firing alerts block (pending ones too when false; Alertmanager: unsilenced and uninhibited only when true). */
  firingOnly: boolean;
}

export type DrainTimeoutPolicy = 'pause' | 'skip' | 'force';

export const NOTIFY_EVENTS = ['start', 'drained', 'replaced', 'blocked', 'paused', 'failed', 'completed'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export interface Notifications {
  url: string;
  /** `slack`: `{"text": …}` (Slack, Mattermost, Rocket.Chat, Teams' Slack-compatible hooks); `json`: the event as an object with `text`. */
  format: 'slack' | 'json';
  /** A template per event; `{{rollout}}`, `{{context}}`, `{{node}}`, `{{reason}}`, `{{replacement}}`, `{{done}}`, `{{total}}`. */
  templates: Partial<Record<NotifyEvent, string>>;
}

export interface RolloutGuards {
  /** None: any time. */
  windows: MaintenanceWindow[];
  budget?: DisruptionBudget;
  alerts?: AlertGate;
  /** Label selectors (kubectl syntax) of pods anywhere in the cluster whose presence holds the rollout (kured's --blocking-pod-selector). */
  blockingPods: string[];
  /** How often a hold is checked again. */
  recheckMs: number;
  /** After a batch passes its health gate, before the next (between nodes when one at a time): system-upgrade-controller's postCompleteDelay. */
  soakMs: number;
  /** When the next batch is of a lower priority, this instead (if longer). */
  prioritySoakMs: number;
  /** A node not done this long after its cordon pauses the rollout. */
  nodeDeadlineMs?: number;
  /** The rollout not done this long after it first started pauses it. */
  rolloutDeadlineMs?: number;
  /** What a drain that times out does: pause the rollout, skip the node (uncordoned, left for later), or delete its pods without eviction. */
  onDrainTimeout: DrainTimeoutPolicy;
  /** Put a PreferNoSchedule taint on the rollout's nodes not yet done, so evicted pods avoid them. */
  preferNoScheduleTaint: boolean;
  /** Labels put on a node when it is taken (removed when it is done) and on the node (or its replacement) when it is done. */
  labelsBefore: Record<string, string>;
  labelsAfter: Record<string, string>;
  /** Allow this rollout to run while another runs in the same cluster (default: one at a time, under the cluster's Lease). */
  concurrent: boolean;
  notify?: Notifications;
}

export const DEFAULT_RECHECK_MS = 60_000;
export const MIN_RECHECK_MS = 1_000;
/** The taint's key (value: the rollout's name). */
export const PREFER_NO_SCHEDULE_TAINT = 'fleetdeck.io/rollout-pending';

/** The guard rails of a spec written before they existed: none. */
export const NO_GUARDS: RolloutGuards = {
  windows: [],
  blockingPods: [],
  recheckMs: DEFAULT_RECHECK_MS,
  soakMs: 0,
  prioritySoakMs: 0,
  onDrainTimeout: 'pause',
  preferNoScheduleTaint: false,
  labelsBefore: {},
  labelsAfter: {},
  concurrent: false,
};

/** What holds a rollout (it stays Running, held, and checks again every `recheckMs`). */
export type HoldKind = 'window' | 'budget' | 'alerts' | 'pods' | 'soak' | 'cluster';

export interface RolloutHold {
  kind: HoldKind;
  /** One line: "waiting for the window: opens Sat 02:00 Europe/Berlin (in 3 h 12 min)". */
  reason: string;
  since: string;
  /** When known (a window's opening, a soak's end). */
  until?: string;
  checkedAt: string;
}
