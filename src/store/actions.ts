/**
 * What the screens can ask for, one group per tab. The feeds holder (src/feeds/feeds.ts)
 * implements it; screens get it from the app's props and call it; tests pass fakes that record
 * the calls. A group that is absent is not offered (its keys do nothing, its tab shows what it
 * will do). Outcomes come back through the store, not as return values.
 */
import type { RolloutSpec } from '../rollout/types.js';
import type { InstallChoices } from './install.js';
import type { LogTarget } from './log-target.js';
import type { NewRolloutIntent } from './rollout-wizard.js';
import type { StorageTarget } from './storage.js';
import type { EstimateIntent } from './storage-estimate.js';

export interface SandboxActions {
  /** Start the sandbox fleet (the empty screen's `s`); its contexts are then watched. */
  start(): void;
}

/** The install wizard: what it needs, its checks and its steps go to the install slice. */
export interface InstallActions {
  /** Load what the wizard needs (the bundle, the kubeconfig's contexts); the slice's `wizard` says where it stands. */
  open(): void;
  /** Run the prerequisite checks of these choices (again); the plan's bundle for their clusters is said with them. */
  check(choices: InstallChoices): void;
  /** Install with these choices (their plan confirmed). Refused under --read-only with the gate's line. */
  install(choices: InstallChoices): void;
  /** The wizard closed with this exit code (0: installed, and the fleet is watched from now on); steps under way stop. */
  close(code: number): void;
}

export interface PrepareActions {
  /** Run the preflight checks of this host (again); while a run is under way, nothing. */
  run(): void;
}

export interface Day2Actions {
  /** The Day 2 page is shown: the menu and the control plane's facts (the certificates read too). */
  open(): void;
  /** The page is gone (a run under way goes on; its rows are there when it is opened again). */
  close(): void;
  /** The plan of operation `id` with these inputs (reads only). */
  plan(id: string, inputs: Record<string, string>): void;
  /** Run the planned operation (its plan confirmed); its rows go to the slice. Refused under --read-only when it writes. */
  run(): void;
  /** Back to the menu (not while a run is under way). */
  back(): void;
}

export interface RolloutActions {
  /** The tab is shown: start watching every context (once; the watches run as long as the dashboard). */
  show(): void;
  /**
   * Create the rollout and run it here, as `fleetdeck rollout create` (or, `inCluster`, start its
   * Job in the cluster, as `create --in-cluster`); its outcome goes to the slice's actions.
   */
  run(spec: RolloutSpec, inCluster?: boolean): void;
  /** Resume a paused rollout here, as `fleetdeck rollout resume`. */
  resume(context: string, name: string): void;
  /** Abort a rollout, as `fleetdeck rollout abort`: uncordons what it cordoned and did not finish. */
  abort(context: string, name: string): void;
  /** The new-rollout wizard: its state is the slice's `wizard`. */
  wizard: RolloutWizardActions;
}

export interface RolloutWizardActions {
  /** Open it (on `context`, preselected). */
  open(context?: string): void;
  /** What the operator did on a page. */
  send(intent: NewRolloutIntent): void;
  /** Start what the plan page shows; what was started is the wizard's `started`. */
  confirm(): void;
  close(): void;
}

export interface StorageActions {
  /** The tab is shown: load the catalogues (once). */
  show(): void;
  /** Read a target's inventory (again); the pools an estimate starts with are chosen for it. */
  read(target: StorageTarget): void;
  /** The estimate dialogue: its state is the slice's `estimates` (by target), the open one `open`. */
  estimate: StorageEstimateActions;
}

export interface StorageEstimateActions {
  /** Open the dialogue of a target, as it was left (else the defaults); nothing while estimateRefusal says why not. */
  open(target: StorageTarget): void;
  /** What the operator did on a page (enter on the last size confirms and closes it). */
  send(intent: EstimateIntent): void;
  /** Close it; its choices are kept. */
  close(): void;
}

export interface ApprovalActions {
  /** Open the panel on a context: watch its CertificateSigningRequests. */
  open(context: string): void;
  /** Close the panel: stop the watch. */
  close(): void;
  /** Approve a CSR of the open context; the slice's line says what happened. */
  approve(name: string): void;
  deny(name: string): void;
}

export interface CertsActions {
  /**
   * A view that shows the certificates is on screen (the Certificates view, the Day 2 page; default
   * the former): read every certificate source now, then every minute and when the control plane's
   * Secrets change, while any such view is.
   */
  show(viewer?: string): void;
  /** That view is gone: once no view is left, no more reads (what was read stays in the slice). */
  hide(viewer?: string): void;
  /** Read again now. */
  refresh(): void;
}

/** The log view's switches that re-open the streams, and those that change only how lines are shown. */
export type LogToggle = 'follow' | 'previous' | 'wrap' | 'timestamps';

export interface LogActions {
  /**
   * Open the log view over the current screen for `target` (any screen's `l`): its pods are
   * found, their logs streamed into the logs slice. A view already open is replaced. Esc in the
   * view calls close() and the screen under it is as it was.
   */
  openLogs(target: LogTarget): void;
  /** Close the view: every stream and watch of it stops. */
  close(): void;
  /** follow and previous re-open the streams; wrap and timestamps change only the view. */
  toggle(what: LogToggle): void;
  /** Show the next container of the pods (cycling); the streams re-open. */
  nextContainer(): void;
  /** Search the lines held for `term` ('' clears); the current match becomes the newest. */
  search(term: string): void;
  /** The current match is the line of this `seq`. */
  match(seq: number | undefined): void;
  /** Save the lines held to `<pod>-<container>-<time>.log` in the working directory (never over a file); the slice's note says where. */
  save(): void;
}

/** The Workloads tab's: read the control plane's workloads while shown; one workload's placement checklist. */
export interface WorkloadsActions {
  /** The tab is on screen: read now, then every few seconds while it stays shown. */
  show(): void;
  /** Another tab is on screen: stop reading. */
  hide(): void;
  /** Read now. */
  refresh(): void;
  /** Open the placement checklist of the workload with this key (store/workloads.ts workloadKey). */
  explain(key: string): void;
  close(): void;
}

export interface Actions {
  sandbox?: SandboxActions;
  install?: InstallActions;
  prepare?: PrepareActions;
  day2?: Day2Actions;
  rollouts?: RolloutActions;
  storage?: StorageActions;
  approvals?: ApprovalActions;
  certs?: CertsActions;
  logs?: LogActions;
  workloads?: WorkloadsActions;
}
