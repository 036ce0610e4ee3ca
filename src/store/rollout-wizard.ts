/**
 * The new-rollout wizard as the Rollouts tab shows it: the answers page by page, the context's
 * nodes, the plan and its dry run, and what confirming started. Its model runs in the rollouts
 * feed (src/feeds/rollouts/wizard.ts); the screen draws this and sends the operator's intents.
 */
import type { CheckItem } from '../checklist/checklist.js';
import type { Plan } from '../rollout/plan.js';
import type { RolloutDryRun } from '../rollout/runner/dry-run.js';
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
  | { type: 'options' }
  | { type: 'scroll'; delta: number; max: number }
  | { type: 'back' };

/** The pages in order, for the title's "step n of m" (the options page is Navarchos' own business). */
export function pagesFor(navarchos: boolean): NewRolloutPage[] {
  return navarchos
    ? ['context', 'selectors', 'nodes', 'priorities', 'plan']
    : ['context', 'selectors', 'nodes', 'priorities', 'options', 'plan'];
}

/** The options page's rows: replacement mode, max unavailable, --force, --delete-emptydir-data. */
export const OPTION_COUNT = 4;
