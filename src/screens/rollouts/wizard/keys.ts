/**
 * The new-rollout wizard's keys, page by page (it takes the whole keyboard): the pages with a
 * widget (the context list, the selector's text field, the node picker, a guard rail's text field
 * on the options page) declare the widget's keys for the hint line and the help; the others run
 * theirs here. Confirming the plan starts a rollout: under --read-only it is refused with the
 * gate's line.
 */
import { type KeyTable, pagedKeys } from '../../../components/key-actions/index.js';
import { type NewRolloutIntent, type NewRolloutPage, type NewRolloutState, startable, typingIn } from '../../../store/rollout-wizard.js';
import type { WithApp } from '../../keys/app-commands.js';

export interface NewRolloutKeys extends WithApp {
  state: NewRolloutState;
  send(intent: NewRolloutIntent): void;
  confirm(): void;
  close(): void;
  /** The plan page's lines that do not fit, and a page of them. */
  maxScroll: number;
  planBudget: number;
}

const { on, widget } = pagedKeys<NewRolloutKeys, NewRolloutPage>((c) => c.state.page);

const scroll = (c: NewRolloutKeys, delta: number) => c.send({ type: 'scroll', delta, max: c.maxScroll });
/** On the options page, a guard rail's text field has the focus: it takes the typed keys (letters, space, ←/→, Enter). */
const typing = (c: NewRolloutKeys) => typingIn(c.state) !== undefined;
const choosing = (c: NewRolloutKeys) => c.state.page === 'options' && !typing(c);

export const NEW_ROLLOUT_KEYS: KeyTable<NewRolloutKeys> = {
  title: 'New rollout',
  owns: true,
  actions: [
    widget(['up', 'down'], 'choose', ['context'], '↑/↓'),
    widget(['enter'], 'select', ['context']),
    widget(['text'], 'a selector', ['selectors'], 'type'),
    widget(['enter'], 'add it (on an empty line: continue)', ['selectors']),
    widget(['enter'], 'keep', ['selectorPriority']),
    widget(['up', 'down'], 'move', ['nodes'], '↑/↓'),
    widget(['space'], 'select', ['nodes']),
    widget(['enter'], 'continue', ['nodes']),
    {
      keys: ['up', 'k', 'down', 'j'],
      label: '↑/↓',
      description: 'node',
      when: on('priorities'),
      run: (c, input, key) => c.send({ type: 'focus', delta: key.upArrow || input === 'k' ? -1 : 1 }),
    },
    {
      keys: ['up', 'k', 'down', 'j'],
      label: '↑/↓',
      description: 'option',
      when: choosing,
      run: (c, input, key) => c.send({ type: 'focus', delta: key.upArrow || input === 'k' ? -1 : 1 }),
    },
    {
      keys: ['up', 'down'],
      label: '↑/↓',
      description: 'option',
      when: typing,
      run: (c, _input, key) => c.send({ type: 'focus', delta: key.upArrow ? -1 : 1 }),
    },
    { keys: ['text'], label: 'type', description: 'a guard rail', when: typing },
    { keys: ['enter'], description: 'continue', when: typing },
    {
      keys: ['digit'],
      description: 'type digits',
      when: on('priorities'),
      run: (c, input) => c.send({ type: 'priorityDigit', digit: Number(input) }),
    },
    { keys: ['backspace'], description: 'erase a digit', when: on('priorities'), run: (c) => c.send({ type: 'priorityBackspace' }) },
    {
      keys: ['left', 'h', 'right', 'l'],
      label: '←/→',
      description: 'change',
      when: choosing,
      run: (c, input, key) => c.send({ type: 'optionChange', delta: key.leftArrow || input === 'h' ? -1 : 1 }),
    },
    { keys: ['space'], description: 'toggle', when: choosing, run: (c) => c.send({ type: 'optionToggle' }) },
    {
      keys: ['digit'],
      description: 'nodes at once',
      visible: false,
      when: choosing,
      run: (c, input) => c.send({ type: 'maxUnavailableDigit', digit: Number(input) }),
    },
    { keys: ['enter'], description: 'continue', when: on('priorities'), run: (c) => c.send({ type: 'priorities' }) },
    { keys: ['enter'], description: 'continue', when: choosing, run: (c) => c.send({ type: 'options' }) },
    {
      keys: ['enter'],
      description: 'start the rollout',
      hint: (c) => (c.state.navarchos ? 'create the NodeRollout' : 'start'),
      when: (c) => startable(c.state),
      dangerous: 'a new rollout cordons, drains and replaces nodes',
      run: (c) => c.confirm(),
    },
    {
      keys: ['i'],
      description: 'run it here / in the cluster',
      hint: (c) => `run ${c.state.inCluster ? 'here' : 'in the cluster'}`,
      when: (c) => c.state.page === 'plan' && !c.state.navarchos && !c.state.starting && !c.state.started,
      run: (c) => c.send({ type: 'toggleInCluster' }),
    },
    {
      keys: ['j', 'down', 'k', 'up'],
      label: 'j k',
      hintLabel: 'j/k',
      description: 'scroll',
      when: on('plan'),
      run: (c, input, key) => scroll(c, input === 'j' || key.downArrow ? 1 : -1),
    },
    {
      keys: ['pgdn', 'pgup'],
      label: 'pgup pgdn',
      description: 'a page',
      visible: false,
      when: on('plan'),
      run: (c, _input, key) => scroll(c, key.pageUp ? -c.planBudget : c.planBudget),
    },
    { keys: ['esc'], description: 'cancel', when: on('context'), run: (c) => c.close() },
    { keys: ['esc'], description: 'back', when: (c) => c.state.page !== 'context', run: (c) => c.send({ type: 'back' }) },
    { keys: ['ctrl-c'], description: 'leave', visible: on('plan'), run: (c) => c.close() },
  ],
};
