/**
 * The real rollouts feed over fake workflows that record what they are asked: each context
 * lists the rollouts given for it (none by default) and Navarchos as given; runs, resumes and
 * aborts run until the test is over, as a real rollout would.
 */
import { type RolloutWork, rolloutsFeed } from '../../../src/feeds/rollouts/feed.js';
import type { NavarchosState, NodeRolloutRequest } from '../../../src/kube/navarchos/objects.js';
import type { Plan } from '../../../src/rollout/plan.js';
import type { RolloutDryRun } from '../../../src/rollout/runner/dry-run.js';
import type { PlanNode, RolloutSpec, RolloutState } from '../../../src/rollout/types.js';
import type { RolloutActions } from '../../../src/store/actions.js';
import type { FleetStore } from '../../../src/store/fleet-store.js';
import { startFeed } from './feeds.js';

export const NAVARCHOS_NOT_INSTALLED: NavarchosState = { installed: false, synced: true, rollouts: [], replacements: [] };

export interface FakeRolloutWorkOptions {
  rollouts?: Record<string, RolloutState[]>;
  navarchos?: Record<string, NavarchosState>;
  nodes: PlanNode[];
  /** The dry run of a plan's nodes. */
  dryRun: (nodes: string[], s: RolloutSpec) => RolloutDryRun;
  /** Contexts whose rollouts run in the cluster by default (the fleet file's). */
  inClusterIn?: string[];
}

export interface RolloutCalls {
  shown: number;
  runs: RolloutSpec[];
  inCluster: (boolean | undefined)[];
  aborts: string[];
  resumes: string[];
  dryRuns: { spec: RolloutSpec; plan: Plan }[];
  creates: { context: string; request: NodeRolloutRequest }[];
}

/** Never settles: what runs until the test is over. */
const forever = () => new Promise<never>(() => {});

export function fakeRolloutWork(o: FakeRolloutWorkOptions): { work: RolloutWork; calls: RolloutCalls } {
  const calls: RolloutCalls = { shown: 0, runs: [], inCluster: [], aborts: [], resumes: [], dryRuns: [], creates: [] };
  const work: RolloutWork = {
    watch: (context, handlers) => {
      handlers.onList?.(o.rollouts?.[context] ?? []);
      return { stop: () => {} };
    },
    watchNavarchos: (context, onChange) => {
      onChange(o.navarchos?.[context] ?? NAVARCHOS_NOT_INSTALLED);
    },
    listNodes: async () => o.nodes,
    dryRun: async (s, plan) => {
      calls.dryRuns.push({ spec: s, plan });
      return o.dryRun(
        plan.nodes.map((n) => n.name),
        s,
      );
    },
    run: (s, _signal, inCluster) => {
      calls.runs.push(s);
      calls.inCluster.push(inCluster);
      return forever();
    },
    inClusterDefault: (context) => o.inClusterIn?.includes(context) ?? false,
    resume: (context, name) => {
      calls.resumes.push(`${context}/${name}`);
      return forever();
    },
    abort: (context, name) => {
      calls.aborts.push(`${context}/${name}`);
      return forever();
    },
    createNodeRollout: async (context, request) => {
      calls.creates.push({ context, request });
      return { name: 'rollout-abcde', phase: 'New', targets: [], priorities: [], replacementsCreated: 0, replacementsCompleted: 0 };
    },
  };
  return { work, calls };
}

/** The feed's actions, `show` counted. */
export function fakeRolloutsFeed(store: FleetStore, o: FakeRolloutWorkOptions): { actions: RolloutActions; calls: RolloutCalls } {
  const { work, calls } = fakeRolloutWork(o);
  const real = startFeed(store, rolloutsFeed({ work: () => work })).actions as RolloutActions;
  const actions: RolloutActions = {
    ...real,
    show: () => {
      calls.shown++;
      real.show();
    },
  };
  return { actions, calls };
}
