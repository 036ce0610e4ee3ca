/**
 * The one prompt module: every question a command asks before it changes a cluster, on the
 * terminal, answered on stdin. Without a terminal nobody can answer: commands then require --yes.
 */
import { createInterface } from 'node:readline/promises';
import { UserError } from '../errors.js';

/**
 * Ask one question on the terminal and return the answer, trimmed. Ctrl-D (end of input) is an
 * empty answer; Ctrl-C ends the run: nothing was changed, exit 130 as for any Ctrl-C.
 */
export async function ask(
  question: string,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<string> {
  const rl = createInterface({ input, output });
  let interrupted = false;
  const abort = new AbortController();
  rl.on('SIGINT', () => {
    interrupted = true;
    abort.abort();
  });
  try {
    return (await rl.question(question, { signal: abort.signal })).trim();
  } catch (err) {
    output.write('\n');
    if (interrupted) throw new UserError('interrupted (Ctrl-C) before an answer: nothing was changed', 130);
    // The input ended (Ctrl-D): no answer is a no.
    if ((err as { code?: string }).code === 'ABORT_ERR') return '';
    throw err;
  } finally {
    rl.close();
  }
}

/** Can anyone answer a question here? Both ends must be a terminal. */
export function interactive(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/** A y/N question: true only for y or yes. */
export async function confirm(question: string): Promise<boolean> {
  return /^y(es)?$/i.test(await ask(`${question} [y/N] `));
}

/** A typed confirmation: true only when the answer is exactly `expected`. */
export async function confirmTyped(question: string, expected: string): Promise<boolean> {
  return (await ask(question)) === expected;
}
