/**
 * The install wizard's keys, page by page (it takes the whole keyboard): the pages with a widget
 * (the context list, the text fields, the HA choice) declare the widget's keys for the hint line
 * and the help; the checks page runs them again (r, n without HA) or goes on; the plan installs
 * (enter, or y for the reference bundle on a cluster that is not the sandbox) — under
 * --read-only that is refused with the gate's line; the progress page leaves once done. Esc goes
 * back a page. Ctrl-C stops the steps under way (run the install again to continue); otherwise on
 * its own (`fleetdeck install`) it leaves, and in the dashboard it quits fleetdeck as everywhere
 * there, esc on the first page closing the wizard.
 */
import { type KeyTable, pagedKeys } from '../../components/key-actions/index.js';
import { INSTALL_WRITES, type InstallChecks, type InstallSteps } from '../../store/install.js';
import type { WithApp } from '../keys/app-commands.js';
import { CTRL_C_QUITS } from '../keys/global.js';
import type { WizardAction, WizardPage, WizardState } from './use-wizard-state.js';

export interface WizardKeys extends WithApp {
  /** The pages and answers as of the last key. */
  state: WizardState;
  checks: InstallChecks | undefined;
  steps: InstallSteps | undefined;
  /** The plan installs the reference bundle on a cluster that is not the sandbox: y, not enter. */
  askReference: boolean;
  /** The user's kubeconfig the control plane's context can be merged into (m). */
  userKubeconfig: string | undefined;
  /** The kubeconfig has no context but the hosting one: the workloads page has none to offer. */
  noOthers: boolean;
  /** An answer (the checks asked for go to the feed). */
  send(action: WizardAction): void;
  /** Install the plan's choices. */
  install(): void;
  /** Leave the wizard: 0 installed, 1 stopped or failed, 130 cancelled. */
  exit(code: number): void;
  /** The wizard is the whole program (`fleetdeck install`), not a page of the dashboard. */
  standalone: boolean;
}

const { on, widget } = pagedKeys<WizardKeys, WizardPage>((c) => c.state.page);

const picking = (c: WizardKeys) => c.state.page === 'workloads' && !c.noOthers;
const checksDone = (c: WizardKeys) => c.state.page === 'checks' && c.checks?.done === true;
const onPlan = on('plan');
const installing = (c: WizardKeys) => c.state.page === 'progress' && c.steps?.done !== true;

export const WIZARD_KEYS: KeyTable<WizardKeys> = {
  title: 'Install wizard',
  owns: true,
  actions: [
    widget(['up', 'down'], 'choose', ['hosting', 'ha'], '↑/↓'),
    widget(['enter'], 'select', ['hosting', 'ha']),
    { ...widget(['up', 'down'], 'move', ['workloads'], '↑/↓'), when: picking },
    { ...widget(['space'], 'select', ['workloads']), when: picking },
    {
      keys: ['enter'],
      description: 'continue',
      when: (c) => c.state.page === 'workloads' && c.noOthers,
      run: (c) => c.send({ type: 'workloads', contexts: [] }),
    },
    { ...widget(['enter'], 'continue', ['workloads']), when: picking },
    widget(['enter'], 'continue', ['namespace', 'names', 'topology', 'validity']),
    {
      keys: ['enter'],
      description: 'continue (if nothing failed)',
      hint: 'continue',
      when: (c) => checksDone(c) && !c.checks?.blocking,
      run: (c) => c.send({ type: 'confirmChecks' }),
    },
    { keys: ['r'], description: 'run the checks again', hint: 'run again', when: checksDone, run: (c) => c.send({ type: 'rerunChecks' }) },
    {
      keys: ['n'],
      description: 'the checks again without HA',
      hint: 'without HA',
      when: (c) => checksDone(c) && c.state.choices.ha,
      run: (c) => c.send({ type: 'withoutHA' }),
    },
    {
      keys: ['enter'],
      description: 'install',
      when: (c) => onPlan(c) && !c.askReference,
      dangerous: INSTALL_WRITES,
      run: (c) => c.install(),
    },
    {
      keys: ['y'],
      description: 'install the reference bundle',
      when: (c) => onPlan(c) && c.askReference,
      dangerous: INSTALL_WRITES,
      run: (c) => c.install(),
    },
    {
      keys: ['m'],
      description: 'merge into your kubeconfig, or not',
      visible: false,
      when: (c) => onPlan(c) && c.userKubeconfig !== undefined,
      run: (c) => c.send({ type: 'toggleMerge' }),
    },
    {
      keys: ['q', 'enter', 'esc'],
      label: 'q',
      description: 'done',
      when: (c) => c.state.page === 'progress' && c.steps?.done === true,
      run: (c) => c.exit(c.steps?.ok ? 0 : 1),
    },
    { keys: ['esc'], description: 'back', when: (c) => !on('hosting', 'progress')(c), run: (c) => c.send({ type: 'back' }) },
    {
      keys: ['esc'],
      description: 'close the wizard',
      hint: 'close',
      when: (c) => !c.standalone && on('hosting')(c),
      run: (c) => c.exit(130),
    },
    {
      keys: ['ctrl-c'],
      description: 'stop the install (run it again to continue)',
      hint: 'stops (run the install again to continue)',
      when: installing,
      run: (c) => c.exit(130),
    },
    {
      ...CTRL_C_QUITS,
      description: 'quit fleetdeck',
      hint: 'quit',
      visible: (c) => !on('workloads', 'progress')(c),
      when: (c) => !c.standalone,
    },
    {
      keys: ['ctrl-c'],
      description: 'quit',
      visible: (c) => !on('workloads', 'progress')(c),
      run: (c) => c.exit(c.steps?.ok ? 0 : 130),
    },
  ],
};
