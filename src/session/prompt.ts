/**
 * The one prompt module: every question a command asks before it changes a cluster, on the
 * terminal, answered on stdin. Without a terminal nobody can answer: commands then require --yes.
 */
import { createInterface } from 'node:readline/promises';

/** Ask one question on the terminal and return the answer, trimmed. */
export async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
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
