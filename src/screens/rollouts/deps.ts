import type { NavarchosState, NodeRolloutRequest, NodeRolloutSummary } from '../../kube/navarchos.js';
import type { Plan } from '../../rollout/plan.js';
import type { RolloutDryRun } from '../../rollout/runner.js';
import type { RolloutWatchHandlers } from '../../rollout/state.js';
import type { PlanNode, RolloutSpec } from '../../rollout/types.js';

/**
 * The Rollouts screen's link to the clusters, by context name: the watches that feed it, the
 * dry run, and the actions. The dashboard builds it from src/rollout and src/kube (loaded when
 * the tab is first shown); tests pass fakes.
 */
export interface RolloutsDeps {
  /** Watch the fleetdeck rollouts (their ConfigMaps) of a context, as watchRollouts does. */
  watch: (context: string, handlers: RolloutWatchHandlers) => { stop(): Promise<void> | void };
  /** Watch Navarchos' NodeRollouts and NodeReplacements of a context; stops when `signal` aborts. Absent: Navarchos is not looked for. */
  watchNavarchos?: (context: string, onChange: (state: NavarchosState) => void, signal: AbortSignal) => unknown;
  /** The context's nodes with their labels (the wizard matches selectors against them). */
  listNodes: (context: string) => Promise<PlanNode[]>;
  /** What the rollout would do, as `fleetdeck rollout create --dry-run`: every pod of the planned nodes classified, the room per batch (changes nothing). */
  dryRun: (spec: RolloutSpec, plan: Plan) => Promise<RolloutDryRun>;
  /**
   * Create the rollout and run it to its end, as `fleetdeck rollout create` does (the state goes
   * to its ConfigMap, which the watch shows). Rejects when it cannot start (a rollout of that
   * name exists, a node is gone…); resolves when it completes, pauses or fails.
   */
  run: (spec: RolloutSpec) => Promise<unknown>;
  /** Resume a paused (or orphaned) rollout in this process, as `fleetdeck rollout resume`. */
  resume: (context: string, name: string) => Promise<unknown>;
  /** Abort a rollout, as `fleetdeck rollout abort`: stops it and uncordons what it cordoned and did not finish. */
  abort: (context: string, name: string) => Promise<unknown>;
  /** Create a NodeRollout (generateName rollout-) and leave the work to the Navarchos controller. */
  createNodeRollout: (context: string, request: NodeRolloutRequest) => Promise<NodeRolloutSummary>;
}
