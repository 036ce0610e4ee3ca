import { describe, expect, it } from 'vitest';
import { checklistLines, checkSymbol, formatChecklist, toAscii, type CheckItem } from '../../src/checklist/checklist.js';

describe('formatChecklist', () => {
  it('prints the wording of the Nova status command', () => {
    // Given a check with a value and a warning statement with a hint
    const items: CheckItem[] = [
      { id: 'api', label: 'API Server status', state: 'ok', detail: 'Running' },
      {
        id: 'clusters',
        label: '0 workload clusters connected',
        state: 'warn',
        hint: 'please connect at least one Cluster, otherwise ...',
      },
    ];

    // When formatted
    const text = formatChecklist(items, { ascii: false });

    // Then it reads as operators know it
    expect(text).toBe(
      ['* API Server status... Running √', '0 workload clusters connected ‼', '  please connect at least one Cluster, otherwise ...'].join(
        '\n',
      ),
    );
  });

  it('ends failures with ✗, running with …, pending with ·, and info with nothing', () => {
    // Given one item per state
    const items: CheckItem[] = [
      { id: 'a', label: 'Certificates', state: 'fail', detail: 'expired', hint: 'run the install again to renew them' },
      { id: 'b', label: 'Control plane', state: 'running' },
      { id: 'c', label: 'CRDs', state: 'pending' },
      { id: 'd', label: 'Kubelet versions', state: 'info', detail: 'v1.31.0 ×3' },
    ];

    // When formatted
    const text = formatChecklist(items);

    // Then
    expect(text.split('\n')).toEqual([
      '* Certificates... expired ✗',
      '  run the install again to renew them',
      'Control plane …',
      'CRDs ·',
      '* Kubelet versions... v1.31.0 ×3',
    ]);
  });

  it('indents children two spaces per level, and their hints two more', () => {
    // Given nested items
    const items: CheckItem[] = [
      {
        id: 'nodes',
        label: 'Nodes ready',
        state: 'warn',
        detail: '3/4',
        children: [{ id: 'w', label: 'worker-2', state: 'fail', detail: 'KubeletNotReady', hint: 'look at the kubelet log' }],
      },
    ];

    // When formatted
    const lines = formatChecklist(items).split('\n');

    // Then
    expect(lines).toEqual(['* Nodes ready... 3/4 ‼', '  * worker-2... KubeletNotReady ✗', '    look at the kubelet log']);
  });

  it('uses ASCII symbols, and only ASCII, when asked', () => {
    // Given items of every state, with Unicode in their text
    const items: CheckItem[] = [
      { id: 'a', label: 'API Server status', state: 'ok', detail: 'Running' },
      { id: 'b', label: '0 workload clusters connected', state: 'warn', hint: 'connect one — see “fleetdeck install”' },
      { id: 'c', label: 'Certificates', state: 'fail', detail: 'expired' },
      { id: 'd', label: 'Control plane', state: 'running', detail: 'starting…' },
      { id: 'e', label: 'CRDs', state: 'pending' },
      { id: 'f', label: 'Kubelets', state: 'info', detail: 'v1.31.0 ×3' },
    ];

    // When formatted in ASCII
    const text = formatChecklist(items, { ascii: true });

    // Then the symbols are bracketed words and every character is ASCII
    expect(text.split('\n')).toEqual([
      '* API Server status... Running [ok]',
      '0 workload clusters connected [!!]',
      '  connect one - see "fleetdeck install"',
      '* Certificates... expired [xx]',
      '* Control plane... starting... [..]',
      'CRDs [  ]',
      '* Kubelets... v1.31.0 x3',
    ]);
    expect([...text].every((ch) => ch.charCodeAt(0) < 128)).toBe(true);
  });

  it('prints nothing for no items', () => {
    expect(formatChecklist([])).toBe('');
  });
});

describe('checkSymbol', () => {
  it('gives every state one symbol, the same width within a set', () => {
    const states = ['pending', 'running', 'ok', 'warn', 'fail', 'info'] as const;
    expect(states.map((s) => checkSymbol(s, { ascii: false }))).toEqual(['·', '…', '√', '‼', '✗', '•']);
    expect(new Set(states.map((s) => checkSymbol(s, { ascii: true }).length))).toEqual(new Set([4]));
  });
});

describe('checklistLines', () => {
  it('lists each item, then its hint, then its children', () => {
    const items: CheckItem[] = [
      { id: 'a', label: 'A', state: 'warn', hint: 'fix a', children: [{ id: 'a1', label: 'A1', state: 'ok' }] },
      { id: 'b', label: 'B', state: 'ok' },
    ];
    expect(checklistLines(items).map((l) => `${l.depth}:${l.kind}:${l.item.id}`)).toEqual([
      '0:item:a',
      '0:hint:a',
      '1:item:a1',
      '0:item:b',
    ]);
  });
});

describe('toAscii', () => {
  it('keeps ASCII and replaces what it knows, ? for the rest', () => {
    expect(toAscii('connecting…')).toBe('connecting...');
    expect(toAscii('a → b ✓ 雪')).toBe('a -> b v ?');
  });
});
