import { describe, expect, it } from 'vitest';
import { formatLine, prefix, sourceColor, type LogSource } from '../../src/logs/format.js';

const src: LogSource = { context: 'kind-w1', namespace: 'shop', pod: 'web-1', container: 'nginx' };
const T = '2026-11-25T10:00:00.123456789Z';

describe('formatLine', () => {
  it('text: context/pod/container, then the line', () => {
    expect(prefix(src)).toBe('kind-w1/web-1/nginx');
    expect(formatLine(src, T, 'GET / 200', { output: 'text', timestamps: false, color: false })).toBe('kind-w1/web-1/nginx GET / 200');
  });

  it('--timestamps: the stamp after the prefix; a line without one stays as it is', () => {
    expect(formatLine(src, T, 'hi', { output: 'text', timestamps: true, color: false })).toBe(`kind-w1/web-1/nginx ${T} hi`);
    expect(formatLine(src, '', 'hi', { output: 'text', timestamps: true, color: false })).toBe('kind-w1/web-1/nginx hi');
  });

  it('colour: only the prefix, in the source’s colour, reset after it', () => {
    const line = formatLine(src, T, 'hi', { output: 'text', timestamps: false, color: true });
    expect(line).toBe(`\u001b[${sourceColor(src)}mkind-w1/web-1/nginx\u001b[0m hi`);
  });

  it('json: one object with context, namespace, pod, container, time and line', () => {
    const line = formatLine(src, T, 'say "hi"', { output: 'json', timestamps: false, color: true });
    expect(JSON.parse(line)).toEqual({
      context: 'kind-w1',
      namespace: 'shop',
      pod: 'web-1',
      container: 'nginx',
      time: T,
      line: 'say "hi"',
    });
    expect(Object.keys(JSON.parse(line))).toEqual(['context', 'namespace', 'pod', 'container', 'time', 'line']);
    expect(line).not.toContain('\u001b');
  });
});

describe('sourceColor', () => {
  it('is stable and spreads sources over several colours', () => {
    expect(sourceColor(src)).toBe(sourceColor({ ...src }));
    const colors = new Set(Array.from({ length: 20 }, (_, i) => sourceColor({ ...src, pod: `web-${i}` })));
    expect(colors.size).toBeGreaterThan(3);
    for (const c of colors) expect(c).not.toBe(31);
  });
});
