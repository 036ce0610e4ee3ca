import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { ask } from '../../src/session/prompt.js';

/** A terminal's two ends: readline reads keys (Ctrl-C included) from a TTY. */
function terminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
  const output = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  let shown = '';
  output.on('data', (d: Buffer) => (shown += d.toString()));
  return { input, output, shown: () => shown };
}

describe('ask', () => {
  it('returns the answer typed, trimmed', async () => {
    const t = terminal();
    const answer = ask('Go on? ', t.input, t.output);
    t.input.write('  yes \r');
    expect(await answer).toBe('yes');
    expect(t.shown()).toContain('Go on? ');
  });

  it('Ctrl-C instead of an answer ends the run with exit 130, saying nothing was changed', async () => {
    const t = terminal();
    const answer = ask('Go on? ', t.input, t.output);
    t.input.write('\x03');
    const err = await answer.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(130);
    expect((err as UserError).message).toBe('interrupted (Ctrl-C) before an answer: nothing was changed');
  });

  it('the input ending (Ctrl-D) is an empty answer', async () => {
    const t = terminal();
    const answer = ask('Go on? ', t.input, t.output);
    t.input.write('\x04');
    expect(await answer).toBe('');
  });
});
