import { describe, expect, it } from 'vitest';
import { splitTimestamp } from '../../../src/kube/pods/pod-logs.js';

describe('splitTimestamp', () => {
  it('splits the runtime stamp from the text', () => {
    expect(splitTimestamp('2026-11-25T17:09:01.123456789Z hello world')).toEqual({
      time: '2026-11-25T17:09:01.123456789Z',
      text: 'hello world',
    });
  });
  it('keeps a line without a stamp whole', () => {
    expect(splitTimestamp('no stamp here')).toEqual({ time: '', text: 'no stamp here' });
  });
  it('keeps an empty text', () => {
    expect(splitTimestamp('2026-11-25T17:09:01Z ')).toEqual({ time: '2026-11-25T17:09:01Z', text: '' });
  });
});
