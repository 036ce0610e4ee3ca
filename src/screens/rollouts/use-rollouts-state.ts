import type { RolloutRef } from './rows.js';

/** Where the operator is on the Rollouts tab. Data comes from the feed; this is only navigation. */
export interface RolloutsNav {
  view: 'list' | 'progress';
  /** Selected row of the list. */
  selected: number;
  /** The rollout whose progress is shown. */
  open?: RolloutRef;
  /** Selected node row of the progress view. */
  row: number;
  /** A question waiting for y/n. */
  confirm?: 'abort';
  /** One line about the last key: a refusal, an action started. */
  notice?: string;
}

export type RolloutsAction =
  | { type: 'move'; delta: number; count: number }
  | { type: 'moveTo'; index: number; count: number }
  | { type: 'open'; ref: RolloutRef }
  | { type: 'back' }
  /** The wizard started this: its progress is shown. */
  | { type: 'started'; opened: RolloutRef }
  | { type: 'rowMove'; delta: number; count: number }
  | { type: 'rowTo'; index: number; count: number }
  | { type: 'confirm'; what: 'abort' }
  | { type: 'confirmed'; notice?: string }
  | { type: 'cancelConfirm' }
  | { type: 'notice'; text: string | undefined };

export const initialRolloutsNav: RolloutsNav = { view: 'list', selected: 0, row: 0 };

const clamp = (i: number, count: number) => Math.max(0, Math.min(i, count - 1));

function without<K extends keyof RolloutsNav>(nav: RolloutsNav, ...keys: K[]): RolloutsNav {
  const out = { ...nav };
  for (const k of keys) delete out[k];
  return out;
}

export function rolloutsReducer(nav: RolloutsNav, action: RolloutsAction): RolloutsNav {
  switch (action.type) {
    case 'move':
      return { ...without(nav, 'notice'), selected: clamp(nav.selected + action.delta, action.count) };
    case 'moveTo':
      return { ...without(nav, 'notice'), selected: clamp(action.index, action.count) };
    case 'open':
      return { ...without(nav, 'notice', 'confirm'), view: 'progress', open: action.ref, row: 0 };
    case 'back':
      return { ...without(nav, 'notice', 'confirm', 'open'), view: 'list', row: 0 };
    case 'started':
      return { ...without(nav, 'notice', 'confirm'), view: 'progress', open: action.opened, row: 0 };
    case 'rowMove':
      return { ...without(nav, 'notice'), row: clamp(nav.row + action.delta, action.count) };
    case 'rowTo':
      return { ...without(nav, 'notice'), row: clamp(action.index, action.count) };
    case 'confirm':
      return { ...without(nav, 'notice'), confirm: action.what };
    case 'confirmed': {
      const out = without(nav, 'confirm', 'notice');
      return action.notice ? { ...out, notice: action.notice } : out;
    }
    case 'cancelConfirm':
      return { ...without(nav, 'confirm'), notice: 'not aborted' };
    case 'notice':
      return action.text ? { ...nav, notice: action.text } : without(nav, 'notice');
  }
}
