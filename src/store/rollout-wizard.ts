/**
 * The new-rollout wizard as the Rollouts tab shows it: the answers page by page, the context's
 * nodes, the plan and its dry run, and what confirming started. Its model runs in the rollouts
 * feed (src/feeds/rollouts/wizard.ts); the screen draws this and sends the operator's intents.
 */
import type { CheckItem } from '../checklist/checklist.js';
import type { Plan } from '../rollout/plan.js';
import type { RolloutDryRun } from '../rollout/runner/dry-run.js';
import type { DrainTimeoutPolicy, RolloutGuards } from '../rollout/guards/types.js';
import type { PlanNode, ReplaceMode } from '../rollout/types.js';

export type NewRolloutPage = 'context' | 'selectors' | 'selectorPriority' | 'nodes' | 'priorities' | 'options' | 'plan';

export interface NewRolloutState {
  page: NewRolloutPage;
  context?: string;
  /** The context runs the Navarchos controller: confirming creates a NodeRollout. */
  navarchos: boolean;
  /** The context's nodes (with labels), once listed. */
  nodes: PlanNode[] | undefined;
  nodesError?: string;
  selectors: { selector: string; priority: number }[];
  /** The selector being typed (its matches are shown live); on the priority page, the one being added. */
  draft: string;
  /** What the selector being typed matches, or why it is not a selector (undefined: nothing typed, or no nodes yet). */
  draftMatch?: { names: string[] } | { error: string };
  /** The priority the selectors give each node they match (the highest). */
  fromSelectors: Record<string, number>;
  names: { name: string; priority: number }[];
  /** Focused row on the priorities and the options pages. */
  focus: number;
  /** The focused number is being typed: a digit appends (the first digit after a move replaces it). */
  editing: boolean;
  replace: ReplaceMode;
  maxUnavailable: number;
  force: boolean;
  deleteEmptyDirData: boolean;
  /** The guard rails as typed on the options page. */
  guardForm: GuardForm;
  /** What is wrong with a guard rail typed, by field (shown under it). */
  guardErrors: Partial<Record<GuardField, string>>;
  /** The guard rails the form gives, once it passed (the plan and the spec use them). */
  guards?: RolloutGuards;
  plan?: Plan;
  planError?: string;
  /** The name the rollout gets, chosen with the plan (what is shown is what is created). */
  name: string;
  dryRun?: { done: false } | { done: true; result: RolloutDryRun } | { done: true; error: string };
  /** The plan with its dry run, as the plan page shows it. */
  verdict?: PlanVerdict;
  /** First line shown of the plan page. */
  scroll: number;
  /** Confirmed: the rollout is being created. */
  starting: boolean;
  /** Run it in the cluster, as a Job (`create --in-cluster`), rather than in this fleetdeck. */
  inCluster: boolean;
  /** A one-line problem with the last answer. */
  error?: string;
  /** Confirming started it: the screen shows its progress. */
  started?: { context: string; kind: 'fleetdeck' | 'navarchos'; name: string };
}

export interface PlanVerdict {
  items: CheckItem[];
  /** Pods refused without a flag: the rollout would stop at their node. */
  refused: string[];
  /** The dry run is in. */
  ready: boolean;
}

/** The plan page can be confirmed: the plan is in, its dry run is done and refuses nothing, and nothing was started yet. */
export function startable(s: NewRolloutState): boolean {
  return s.page === 'plan' && !s.starting && !s.started && !!s.context && !!s.plan && !!s.verdict?.ready && s.verdict.refused.length === 0;
}

/** What the operator does on the wizard's pages (the screen sends these). */
export type NewRolloutIntent =
  | { type: 'context'; context: string }
  | { type: 'toggleInCluster' }
  | { type: 'draft'; text: string }
  | { type: 'selector'; text: string }
  | { type: 'selectorPriority'; text: string }
  | { type: 'pickNodes'; names: string[] }
  | { type: 'focus'; delta: number }
  | { type: 'priorityDigit'; digit: number }
  | { type: 'priorityBackspace' }
  | { type: 'priorities' }
  | { type: 'optionChange'; delta: 1 | -1 }
  | { type: 'optionToggle' }
  | { type: 'maxUnavailableDigit'; digit: number }
  | { type: 'guardText'; field: GuardTextField; text: string }
  /** Continue from the options page; `field` and `text`: the guard rail whose text field was submitted. */
  | { type: 'options'; field?: GuardTextField; text?: string }
  | { type: 'scroll'; delta: number; max: number }
  | { type: 'back' };

/** The pages in order, for the title's "step n of m" (the options page is Navarchos' own business). */
export function pagesFor(navarchos: boolean): NewRolloutPage[] {
  return navarchos
    ? ['context', 'selectors', 'nodes', 'priorities', 'plan']
    : ['context', 'selectors', 'nodes', 'priorities', 'options', 'plan'];
}

/**
 * The guard rails as the options page has them (src/rollout/guards), one field per flag of
 * `rollout create`: each text as typed (windows, budget schedules and pod selectors separated by
 * `;`, labels by `,`, durations as `10m`), the choices and the toggles.
 */
export interface GuardForm {
  windows: string;
  budget: string;
  budgetSchedules: string;
  budgetOf: 'cluster' | 'selected';
  alertsApi: 'prometheus' | 'alertmanager';
  alertsUrl: string;
  alertIgnore: string;
  alertMatch: string;
  alertPending: boolean;
  blockingPods: string;
  recheck: string;
  soak: string;
  prioritySoak: string;
  nodeDeadline: string;
  rolloutDeadline: string;
  onDrainTimeout: DrainTimeoutPolicy;
  taint: boolean;
  labelsBefore: string;
  labelsAfter: string;
  concurrent: boolean;
  webhook: string;
  notifyFormat: 'slack' | 'json';
}

export type GuardField = keyof GuardForm;
/** The guard rails typed as text. */
export type GuardTextField = { [K in GuardField]: string extends GuardForm[K] ? K : never }[GuardField];
/** The guard rails toggled with space. */
export type GuardToggleField = { [K in GuardField]: GuardForm[K] extends boolean ? K : never }[GuardField];
/** The guard rails chosen with ←/→. */
export type GuardChoiceField = Exclude<GuardField, GuardTextField | GuardToggleField>;

export const EMPTY_GUARD_FORM: GuardForm = {
  windows: '',
  budget: '',
  budgetSchedules: '',
  budgetOf: 'cluster',
  alertsApi: 'prometheus',
  alertsUrl: '',
  alertIgnore: '',
  alertMatch: '',
  alertPending: false,
  blockingPods: '',
  recheck: '',
  soak: '',
  prioritySoak: '',
  nodeDeadline: '',
  rolloutDeadline: '',
  onDrainTimeout: 'pause',
  taint: false,
  labelsBefore: '',
  labelsAfter: '',
  concurrent: false,
  webhook: '',
  notifyFormat: 'slack',
};

/** A row of the options page: how it is changed (←/→ through choices, space toggles, text typed). */
export interface OptionRow {
  id: 'replace' | 'maxUnavailable' | 'force' | 'deleteEmptyDirData' | GuardField;
  kind: 'choice' | 'toggle' | 'text';
}

/**
 * The options page's rows: replacement mode, max unavailable, --force, --delete-emptydir-data, then
 * the guard rails, each beside those it goes with (the budget's, the alert gate's, the webhook's).
 */
export const OPTION_ROWS: readonly OptionRow[] = [
  { id: 'replace', kind: 'choice' },
  { id: 'maxUnavailable', kind: 'choice' },
  { id: 'force', kind: 'toggle' },
  { id: 'deleteEmptyDirData', kind: 'toggle' },
  { id: 'windows', kind: 'text' },
  { id: 'budget', kind: 'text' },
  { id: 'budgetSchedules', kind: 'text' },
  { id: 'budgetOf', kind: 'choice' },
  { id: 'alertsApi', kind: 'choice' },
  { id: 'alertsUrl', kind: 'text' },
  { id: 'alertIgnore', kind: 'text' },
  { id: 'alertMatch', kind: 'text' },
  { id: 'alertPending', kind: 'toggle' },
  { id: 'blockingPods', kind: 'text' },
  { id: 'recheck', kind: 'text' },
  { id: 'soak', kind: 'text' },
  { id: 'prioritySoak', kind: 'text' },
  { id: 'nodeDeadline', kind: 'text' },
  { id: 'rolloutDeadline', kind: 'text' },
  { id: 'onDrainTimeout', kind: 'choice' },
  { id: 'taint', kind: 'toggle' },
  { id: 'labelsBefore', kind: 'text' },
  { id: 'labelsAfter', kind: 'text' },
  { id: 'concurrent', kind: 'toggle' },
  { id: 'webhook', kind: 'text' },
  { id: 'notifyFormat', kind: 'choice' },
];
export const OPTION_COUNT = OPTION_ROWS.length;
/** The first guard rail's row. */
export const FIRST_GUARD_ROW = 4;

/** The guard rail whose text field has the focus (it takes the typed keys), if any. */
export function typingIn(s: NewRolloutState): GuardTextField | undefined {
  const row = s.page === 'options' ? OPTION_ROWS[s.focus] : undefined;
  return row?.kind === 'text' ? (row.id as GuardTextField) : undefined;
}
