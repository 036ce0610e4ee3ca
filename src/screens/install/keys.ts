/**
 * The Install tab's keys: its landing page (enter the install wizard, p the Prepare nodes page,
 * d the Day 2 page, each when offered) and the Prepare nodes page (p runs the checks again, esc
 * goes back). The wizard's and the Day 2 page's are beside them (wizard-keys.ts, day2-keys.ts).
 */
import type { KeyAction, KeyTable, Live } from '../../components/key-actions/index.js';
import type { Actions } from '../../store/actions.js';
import type { WithApp } from '../keys/app-commands.js';
import { HELP_HINT, QUIT_HINT, SCREENS_HINT } from '../keys/on-app-line.js';
import type { InstallNav, InstallNavAction } from './nav.js';

export interface InstallTabKeys extends WithApp {
  nav: Live<InstallNav, InstallNavAction>;
  actions: Actions;
}

const PREPARE: KeyAction<InstallTabKeys> = {
  keys: ['p'],
  description: 'prepare nodes',
  when: (c) => c.actions.prepare !== undefined,
  run: (c) => {
    c.actions.prepare?.run();
    c.nav.dispatch({ type: 'prepare' });
  },
};

const DAY2: KeyAction<InstallTabKeys> = {
  keys: ['d'],
  description: 'day 2',
  when: (c) => c.actions.day2 !== undefined,
  run: (c) => {
    c.actions.day2?.open();
    c.nav.dispatch({ type: 'day2' });
  },
};

export const LANDING_KEYS: KeyTable<InstallTabKeys> = {
  title: 'Install',
  actions: [
    {
      keys: ['enter'],
      description: 'install wizard',
      when: (c) => c.actions.install !== undefined,
      run: (c) => c.actions.install?.open(),
    },
    PREPARE,
    DAY2,
    HELP_HINT,
    QUIT_HINT,
    SCREENS_HINT,
  ],
};

export const PREPARE_KEYS: KeyTable<InstallTabKeys> = {
  title: 'Prepare nodes',
  actions: [
    { ...PREPARE, description: 'run the checks again', hint: 'run again' },
    { keys: ['esc'], description: 'back', run: (c) => c.nav.dispatch({ type: 'closePrepare' }) },
    { ...DAY2, visible: false },
    HELP_HINT,
    QUIT_HINT,
    SCREENS_HINT,
  ],
};
