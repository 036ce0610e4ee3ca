/** `-o json` and `-o yaml` print the same object: a whole result, or a stream of items. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

/** A fresh module: which YAML document is the first is counted per process. */
let format: typeof import('../../src/output/format.js');
beforeEach(async () => {
  vi.resetModules();
  format = await import('../../src/output/format.js');
});

const RESULT = {
  ok: false,
  when: new Date('2026-11-26T10:00:00Z'),
  left: undefined,
  none: null,
  count: 3,
  ratio: 0.25,
  names: ['a', 'b: c', '- d', '', 'yes', '0123', 'true'],
  hint: `${'a long hint '.repeat(20)}with: a colon and # a hash`,
  lines: 'first\nsecond\n',
  nested: { empty: [], obj: {}, deep: [{ k: 'v' }] },
};

describe('document', () => {
  it('json: indented; yaml: one document that parses to exactly the same object', () => {
    const json = format.document('json', RESULT);
    expect(json).toBe(JSON.stringify(RESULT, null, 2));
    const yaml = format.document('yaml', RESULT);
    expect(parseAllDocuments(yaml)).toHaveLength(1);
    expect(parse(yaml)).toEqual(JSON.parse(json));
    // A Date is the same string as in the JSON; an undefined field is left out of both.
    expect(parse(yaml).when).toBe('2026-11-26T10:00:00.000Z');
    expect(parse(yaml)).not.toHaveProperty('left');
    // Long strings stay on one line.
    expect(yaml.split('\n').some((l) => l.startsWith('hint: ') && l.includes('# a hash'))).toBe(true);
  });

  it('no trailing newline, as the JSON', () => {
    expect(format.document('yaml', { a: 1 })).toBe('a: 1');
  });
});

describe('streamItem', () => {
  it('json: one object a line; yaml: documents with --- between them, as kubectl get -w -o yaml', () => {
    const items = [{ time: 't1', id: 'x', state: 'ok' }, { time: 't2', id: 'y', state: 'fail', detail: 'a\nb' }, RESULT];
    const json = items.map((i) => format.streamItem('json', i));
    for (const l of json) expect(l).not.toContain('\n');
    const yaml = items.map((i) => format.streamItem('yaml', i)).join('\n');
    expect(yaml.startsWith('---')).toBe(false);
    expect(yaml.match(/^---$/gm)).toHaveLength(2);
    expect(parseAllDocuments(yaml).map((d) => d.toJS())).toEqual(json.map((l) => JSON.parse(l)));
  });

  it('a result after a stream is one more document', () => {
    const text = [format.streamItem('yaml', { kind: 'plan' }), format.document('yaml', { kind: 'result' })].join('\n');
    expect(parseAllDocuments(text).map((d) => d.toJS())).toEqual([{ kind: 'plan' }, { kind: 'result' }]);
  });
});
