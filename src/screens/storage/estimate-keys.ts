/**
 * The estimate dialogue's keys (it takes the whole keyboard): Enter goes on, Esc goes back a
 * page (closes on the first), Ctrl-C closes; on the features page space toggles and c switches
 * catalogue; on the pools page ←/→ change the pool; on the sizes page the keys are the text of
 * the focused field. The dialogue only reads: nothing here is refused under --read-only.
 */
import type { KeyTable } from '../../components/key-actions/index.js';
import type { EstimateIntent, EstimatePage, EstimateState } from '../../store/storage-estimate.js';
import type { WithApp } from '../keys/app-commands.js';

export interface EstimateKeys extends WithApp {
  state: EstimateState;
  /** Catalogues offered (c walks through them when there are several). */
  catalogues: number;
  send(intent: EstimateIntent): void;
  close(): void;
}

const on =
  (...pages: EstimatePage[]) =>
  (c: EstimateKeys) =>
    pages.includes(c.state.form.page);
const typing = on('sizes');
/** ↑ (and k where it is not text) go up; ↓, j and tab down. */
const upOrDown = (input: string, key: { upArrow: boolean }): 1 | -1 => (key.upArrow || input === 'k' ? -1 : 1);

export const ESTIMATE_KEYS: KeyTable<EstimateKeys> = {
  title: 'Estimate',
  owns: true,
  actions: [
    {
      keys: ['enter'],
      description: 'next page',
      hint: (c) => (typing(c) ? 'next/done' : 'next'),
      run: (c) => c.send({ type: 'next' }),
    },
    { keys: ['esc'], description: 'close', when: on('features'), run: (c) => c.close() },
    { keys: ['esc'], description: 'page back', hint: 'back', when: on('pools', 'sizes'), run: (c) => c.send({ type: 'back' }) },
    {
      keys: ['up', 'k', 'down', 'j', 'tab'],
      label: '↑ ↓',
      hintLabel: '↑/↓',
      description: 'move',
      when: on('features', 'pools'),
      run: (c, input, key) => c.send({ type: 'focus', delta: upOrDown(input, key) }),
    },
    {
      keys: ['up', 'down', 'tab'],
      label: '↑ ↓',
      hintLabel: '↑/↓',
      description: 'volume',
      when: typing,
      run: (c, input, key) => c.send({ type: 'focus', delta: upOrDown(input, key) }),
    },
    {
      keys: ['space'],
      description: 'enable feature',
      hint: 'enable/disable',
      when: on('features'),
      run: (c) => c.send({ type: 'toggle' }),
    },
    {
      keys: ['left', 'h', 'right', 'l', 'space'],
      label: '← →',
      hintLabel: '←/→',
      description: 'change pool',
      when: on('pools'),
      run: (c, input, key) => c.send({ type: 'pool', delta: key.leftArrow || input === 'h' ? -1 : 1 }),
    },
    {
      keys: ['c'],
      description: 'catalogue',
      when: (c) => on('features')(c) && c.catalogues > 1,
      run: (c) => c.send({ type: 'catalogue' }),
    },
    { keys: ['text'], description: 'size in GB', hint: 'GB', when: typing, run: (c, input) => c.send({ type: 'type', text: input }) },
    // Off the hint line: ctrl-c close keeps its place there in 80 columns.
    { keys: ['backspace'], description: 'erase', visible: false, when: typing, run: (c) => c.send({ type: 'backspace' }) },
    { keys: ['ctrl-c'], description: 'close', visible: typing, run: (c) => c.close() },
  ],
};
