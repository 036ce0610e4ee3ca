import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { Checklist } from '../../src/components/checklist/index.js';
import { UiProvider } from '../../src/components/theme/index.js';
import type { CheckItem } from '../../src/checklist/checklist.js';
import { renderScreen } from '../helpers/screen.js';

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
});
