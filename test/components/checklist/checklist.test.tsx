import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { Checklist } from '../../../src/components/checklist/index.js';
import { UiProvider } from '../../../src/components/theme/index.js';
import type { CheckItem } from '../../../src/checklist/checklist.js';
import { renderScreen } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

const ITEMS: CheckItem[] = [
  { id: 'api', label: 'API server', state: 'ok', detail: 'reachable (3 ms)' },
  {
    id: 'nodes',
    label: 'Nodes ready',
    state: 'warn',
    detail: '3/4',
    hint: 'one node is not ready',
    children: [{ id: 'w', label: 'worker-2', state: 'fail', detail: 'KubeletNotReady' }],
  },
  { id: 'crds', label: 'CRDs', state: 'running' },
  { id: 'agents', label: 'Agents', state: 'pending' },
];

describe('<Checklist>', () => {
  it('draws a symbol, the label and the detail per item, the hint under it, children indented', async () => {
    // Given a checklist
    // When rendered
    const screen = await renderScreen(
      <UiProvider value={{ ascii: false, color: false }}>
        <Checklist items={ITEMS} />
      </UiProvider>,
    );

    // Then
    const lines = (await screen.waitFor('Agents')).split('\n');
    expect(lines[0]).toBe('√ API server  reachable (3 ms)');
    expect(lines[1]).toBe('‼ Nodes ready  3/4');
    expect(lines[2]).toBe('  ↳ one node is not ready');
    expect(lines[3]).toBe('  ✗ worker-2  KubeletNotReady');
    expect(lines[4]).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] CRDs$/);
    expect(lines[5]).toBe('· Agents');
  });

  it('uses ASCII symbols of one width in ASCII mode', async () => {
    // Given ASCII mode
    const screen = await renderScreen(
      <UiProvider value={{ ascii: true, color: false }}>
        <Checklist items={ITEMS} />
      </UiProvider>,
    );

    // Then
    const lines = (await screen.waitFor('Agents')).split('\n');
    expect(lines[0]).toBe('[ok] API server  reachable (3 ms)');
    expect(lines[1]).toBe('[!!] Nodes ready  3/4');
    expect(lines[2]).toBe('     -> one node is not ready');
    expect(lines[3]).toBe('  [xx] worker-2  KubeletNotReady');
    expect(lines[4]).toMatch(/^\[[. ]{2}\] CRDs$/);
    expect(lines[5]).toBe('[  ] Agents');
  });

  it('cuts long lines with an ellipsis instead of wrapping', async () => {
    // Given a long detail in 30 columns
    const screen = await renderScreen(
      <UiProvider value={{ ascii: false, color: false }}>
        <Checklist width={30} items={[{ id: 'x', label: 'Last error', state: 'fail', detail: 'dial tcp 10.0.0.1:6443: i/o timeout' }]} />
      </UiProvider>,
    );

    // Then one line, cut
    const frame = await screen.waitFor('Last error');
    expect(frame.trimEnd().split('\n')).toEqual(['✗ Last error  dial tcp 10.0.0…']);
    expect([...'✗ Last error  dial tcp 10.0.0…'].length).toBe(30);
  });

  it('folds finished rows and keeps the last lines in sight within a height, saying how many are above', async () => {
    // Given finished steps with children, then a running one
    const steps: CheckItem[] = [
      { id: 'a', label: 'Step A', state: 'ok', children: [{ id: 'a1', label: 'A child', state: 'ok' }] },
      { id: 'b', label: 'Step B', state: 'ok', children: [{ id: 'b1', label: 'B warns', state: 'warn' }] },
      { id: 'c', label: 'Step C', state: 'fail', hint: 'fix C' },
      { id: 'd', label: 'Step D', state: 'pending' },
    ];

    // When rendered in 4 lines, finished children folded, the end kept
    const screen = await renderScreen(
      <UiProvider value={{ ascii: false, color: false }}>
        <Checklist items={steps} height={4} fold="children" keep="end" />
      </UiProvider>,
    );

    // Then the finished child is gone, the warning kept, and the first lines give way to a marker
    const lines = (await screen.waitFor('Step D')).split('\n');
    expect(lines).toEqual(['↑ 3 more lines above', '✗ Step C', '  ↳ fix C', '· Step D']);
  });

  it('folds passed rows into one line only when the list does not fit, then cuts the end with the given line', async () => {
    // Given three passed checks and two failures
    const checks: CheckItem[] = [
      { id: 'p1', label: 'One', state: 'ok' },
      { id: 'f1', label: 'Bad', state: 'fail', hint: 'fix it' },
      { id: 'p2', label: 'Two', state: 'info' },
      { id: 'f2', label: 'Worse', state: 'fail' },
      { id: 'p3', label: 'Three', state: 'ok' },
    ];
    const ui = { ascii: false, color: false };

    // When it fits, nothing folds
    const all = await renderScreen(
      <UiProvider value={ui}>
        <Checklist items={checks} height={6} fold="passed" />
      </UiProvider>,
    );
    expect((await all.waitFor('Three')).split('\n')).toEqual(['√ One', '✗ Bad', '  ↳ fix it', '• Two', '✗ Worse', '√ Three']);

    // When it does not, the passed rows become one line after the failures
    const folded = await renderScreen(
      <UiProvider value={ui}>
        <Checklist items={checks} height={4} fold="passed" />
      </UiProvider>,
    );
    expect((await folded.waitFor('passed')).split('\n')).toEqual([
      '✗ Bad',
      '  ↳ fix it',
      '✗ Worse',
      '√ 3 other checks passed  One, Two, Three',
    ]);

    // When it still does not fit, the last lines give way to the given line, counting items
    const cut = await renderScreen(
      <UiProvider value={ui}>
        <Checklist items={checks} height={3} fold="passed" more={(h) => `${h.lines} lines, ${h.items} items more`} />
      </UiProvider>,
    );
    expect((await cut.waitFor('more')).split('\n')).toEqual(['✗ Bad', '  ↳ fix it', '2 lines, 2 items more']);
  });
});
