/**
 * The install wizard's pages and the operator's answers, page by page (the checks and the steps
 * they start run in the install feed, their results in the install slice). Pure; `checksAsked`
 * counts the times the answers asked for the checks (again): the wizard sends them to the feed then.
 */
import type { InstallChoices } from '../../store/install.js';

export type WizardPage = 'hosting' | 'namespace' | 'workloads' | 'names' | 'ha' | 'topology' | 'validity' | 'checks' | 'plan' | 'progress';

/** What the operator chose, page by page. */
export type WizardChoices = InstallChoices;

export interface WizardState {
  page: WizardPage;
  choices: WizardChoices;
  /** Index into `workloads` on the names page. */
  nameIndex: number;
  /** A one-line problem with the value just entered. */
  error?: string;
  /** Bumped each time the answers ask for the checks (again): the validity entered, r, n. */
  checksAsked: number;
}

export type WizardAction =
  | { type: 'hosting'; context: string }
  | { type: 'namespace'; value: string }
  | { type: 'workloads'; contexts: string[] }
  | { type: 'clusterName'; value: string }
  | { type: 'ha'; ha: boolean }
  | { type: 'topologyKey'; value: string }
  | { type: 'validity'; value: string }
  | { type: 'withoutHA' }
  | { type: 'rerunChecks' }
  | { type: 'toggleMerge' }
  | { type: 'confirmChecks' }
  | { type: 'install' }
  | { type: 'back' };

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** A context name turned into a valid cluster name: `kind-workload-1` stays, `arn:aws:…/prod` becomes `prod`. */
export function defaultClusterName(context: string): string {
  const last = context.split('/').pop() ?? context;
  const name = last
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
  return name || 'cluster';
}

/** The page before `page` (Esc), skipping pages that do not apply. */
function previous(state: WizardState): WizardPage {
  switch (state.page) {
    case 'namespace':
      return 'hosting';
    case 'workloads':
      return 'namespace';
    case 'names':
      return 'workloads';
    case 'ha':
      return state.choices.workloads.length ? 'names' : 'workloads';
    case 'topology':
      return 'ha';
    case 'validity':
      return state.choices.ha ? 'topology' : 'ha';
    case 'checks':
      return 'validity';
    case 'plan':
      return 'checks';
    default:
      return state.page;
  }
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  const { choices } = state;
  const next = (page: WizardPage, changes: Partial<WizardChoices> = {}): WizardState => {
    const s: WizardState = { ...state, page, choices: { ...choices, ...changes } };
    delete s.error;
    return s;
  };
  switch (action.type) {
    case 'hosting':
      return next('namespace', { hosting: action.context, workloads: choices.workloads.filter((w) => w !== action.context) });
    case 'namespace':
      if (!NAME.test(action.value))
        return { ...state, error: `"${action.value}" is not a valid namespace name (lower-case letters, digits and -)` };
      return next('workloads', { namespace: action.value });
    case 'workloads': {
      const clusterNames = { ...choices.clusterNames };
      for (const c of action.contexts) clusterNames[c] ??= defaultClusterName(c);
      return { ...next(action.contexts.length ? 'names' : 'ha', { workloads: action.contexts, clusterNames }), nameIndex: 0 };
    }
    case 'clusterName': {
      const context = choices.workloads[state.nameIndex];
      if (!context) return next('ha');
      if (!NAME.test(action.value))
        return { ...state, error: `"${action.value}" is not a valid cluster name (lower-case letters, digits and -)` };
      const taken = choices.workloads.some((w, i) => i < state.nameIndex && choices.clusterNames[w] === action.value);
      if (taken) return { ...state, error: `"${action.value}" is already the name of another cluster` };
      const clusterNames = { ...choices.clusterNames, [context]: action.value };
      const last = state.nameIndex >= choices.workloads.length - 1;
      return last ? next('ha', { clusterNames }) : { ...next('names', { clusterNames }), nameIndex: state.nameIndex + 1 };
    }
    case 'ha':
      return next(action.ha ? 'topology' : 'validity', { ha: action.ha });
    case 'topologyKey':
      if (!LABEL_KEY.test(action.value)) return { ...state, error: `"${action.value}" is not a valid node label key` };
      return next('validity', { topologyKey: action.value });
    case 'validity': {
      const years = Number(action.value);
      if (!Number.isInteger(years) || years < 1 || years > 100)
        return { ...state, error: 'validity is a whole number of years from 1 to 100' };
      return { ...next('checks', { validityYears: years }), checksAsked: state.checksAsked + 1 };
    }
    case 'toggleMerge':
      return { ...state, choices: { ...choices, mergeKubeconfig: !choices.mergeKubeconfig } };
    case 'rerunChecks':
      return { ...state, checksAsked: state.checksAsked + 1 };
    case 'withoutHA':
      return { ...next('checks', { ha: false }), checksAsked: state.checksAsked + 1 };
    // The keys offer these only when the checks passed (confirm) and on the plan (install).
    case 'confirmChecks':
      return state.page === 'checks' ? next('plan') : state;
    case 'install':
      return state.page === 'plan' ? next('progress') : state;
    case 'back': {
      if (state.page === 'progress' || state.page === 'hosting') return state;
      if (state.page === 'names' && state.nameIndex > 0)
        return { ...state, nameIndex: state.nameIndex - 1, error: undefined } as WizardState;
      const s = next(previous(state));
      if (s.page === 'names') s.nameIndex = Math.max(0, choices.workloads.length - 1);
      return s;
    }
  }
}

export function initialWizardState(initial: Partial<WizardChoices> = {}): WizardState {
  return {
    page: 'hosting',
    nameIndex: 0,
    checksAsked: 0,
    choices: {
      namespace: 'elotl',
      workloads: [],
      clusterNames: {},
      ha: true,
      topologyKey: 'topology.kubernetes.io/zone',
      validityYears: 10,
      mergeKubeconfig: false,
      ...initial,
    },
  };
}
