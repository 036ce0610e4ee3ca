/**
 * The Install tab's slice: the install wizard as its feed runs it. What the wizard needs once
 * loaded (the kubeconfig's contexts, the first answers from the flags, the kubeconfig files),
 * the bundle the plan names for each choice of clusters, the prerequisite checks and the install
 * steps as they go. Pure reducers; the install feed is their only caller. Every check or install
 * started, and closing, bumps `run`: an answer for an earlier one is dropped. The wizard's pages
 * and the operator's answers are its screen's.
 */
import type { CheckItem } from '../checklist/checklist.js';

/** What the operator chose, page by page. */
export interface InstallChoices {
  hosting?: string;
  namespace: string;
  workloads: string[];
  /** Cluster name per workload context (default: the context's name, made a valid name). */
  clusterNames: Record<string, string>;
  ha: boolean;
  topologyKey: string;
  validityYears: number;
  /** Also add the control plane's context to the user's kubeconfig (after a backup). */
  mergeKubeconfig: boolean;
}

/** The bundle on the plan page, as its lines say it. */
export interface InstallPlanBundle {
  /** `fleetdeck reference bundle`, or the directory's name. */
  name: string;
  /** `built-in`, or the directory given with `--bundle`. */
  source: string;
  reference: boolean;
  images: string[];
  /** One line per overlay applied, with its kustomization fields. */
  overlays: string[];
  /** With the reference bundle: the chosen contexts that are not the sandbox (y confirms). */
  notSandbox: string[];
}

/** What the wizard starts from. */
export interface InstallSetup {
  /** Every context of the kubeconfig. */
  contexts: string[];
  /** The first answers (from the flags). */
  initial: Partial<InstallChoices>;
  /** Where the control plane's kubeconfig is written. */
  kubeconfigPath?: string;
  /** The user's kubeconfig it can be merged into. */
  userKubeconfig?: string;
}

export interface InstallChecks {
  items: CheckItem[];
  done: boolean;
  /** A check failed: nothing may be installed. */
  blocking: boolean;
  warnings: boolean;
}

export interface InstallSteps {
  items: CheckItem[];
  done: boolean;
  ok: boolean;
}

export interface InstallSlice {
  wizard: 'closed' | 'loading' | 'open' | { error: string };
  setup?: InstallSetup;
  /** The bundle on the plan, per choice of clusters (`clustersKey`). */
  plans: Record<string, InstallPlanBundle>;
  checks?: InstallChecks;
  steps?: InstallSteps;
  /** Bumped by every check or install started and by closing; an answer for an older one is dropped. */
  run: number;
}

/** What installing does, in the words of the write gate's refusal ("… and is refused with --read-only"). */
export const INSTALL_WRITES = 'install changes clusters';

export const emptyInstall = (): InstallSlice => ({ wizard: 'closed', plans: {}, run: 0 });

/** The clusters a plan's bundle depends on (the sandbox is looked up once per choice of them). */
export const clustersKey = (c: Pick<InstallChoices, 'hosting' | 'workloads'>): string => JSON.stringify([c.hosting ?? '', c.workloads]);

/** The bundle the plan names for these choices, once the checks of these clusters started. */
export const planOf = (s: InstallSlice, c: InstallChoices): InstallPlanBundle | undefined => s.plans[clustersKey(c)];

export const installLoading = (s: InstallSlice): InstallSlice => ({ ...emptyInstall(), run: s.run + 1, wizard: 'loading' });

/** What the wizard needs, loaded by the open numbered `run` (dropped when closed since). */
export const installOpened = (s: InstallSlice, run: number, setup: InstallSetup): InstallSlice =>
  s.run === run ? { ...s, wizard: 'open', setup } : s;

export const installFailed = (s: InstallSlice, run: number, error: string): InstallSlice =>
  s.run === run ? { ...s, wizard: { error } } : s;

export const installClosed = (s: InstallSlice): InstallSlice => ({ ...emptyInstall(), run: s.run + 1 });

/** Checks started for a choice of clusters (whose plan's bundle is `plan`, when it could be said). */
export function checksStarted(s: InstallSlice, key: string, plan: InstallPlanBundle | undefined): InstallSlice {
  const plans = plan ? { ...s.plans, [key]: plan } : s.plans;
  return { ...s, plans, run: s.run + 1, checks: { items: [], done: false, blocking: false, warnings: false } };
}

export function checksAnswered(s: InstallSlice, run: number, checks: InstallChecks): InstallSlice {
  return s.run === run ? { ...s, checks } : s;
}

export function stepsStarted(s: InstallSlice): InstallSlice {
  return { ...s, run: s.run + 1, steps: { items: [], done: false, ok: false } };
}

export function stepsAnswered(s: InstallSlice, run: number, steps: InstallSteps): InstallSlice {
  return s.run === run ? { ...s, steps } : s;
}
