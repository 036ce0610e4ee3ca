/**
 * `fleetdeck complete -- WORDS…`: what the shell scripts of `fleetdeck completion` call on Tab.
 * Prints the candidates for the last word, one `value<TAB>description` a line, then tab's
 * `:directive` line. It never prints on stderr (the shell would show it in the middle of the
 * line) and never fails: a problem offers nothing.
 */
import type { Command } from 'commander';
import { completionModel } from './model.js';
import { leafSpecs } from '../install/certs/specs.js';
import { contextNames, fleetClusterNames, fleetNames, rolloutNames } from './sources.js';

/** Options whose value is a context name. */
const CONTEXT_OPTIONS = ['context', 'hosting-context', 'control-plane-context'];
/** The certificates `certs renew` takes (an HA control plane's three etcd members). */
const RENEW_NAMES: readonly [string, string][] = [
  ['all', 'every leaf certificate'],
  ...leafSpecs('elotl', { hostname: 'apiserver' }, 3).map((l): [string, string] => [l.id, l.description]),
  ['init-kubeconfig', "the agents' bootstrap certificate"],
];

/** Commands whose first argument is a rollout recorded in the cluster. */
const ROLLOUT_COMMANDS = ['rollout resume', 'rollout abort', 'rollout watch'];

/** The resources `get` prints (it also takes kubectl's short names, not offered). */
const GET_RESOURCES: readonly [string, string][] = [
  ['nodes', 'every node of the contexts'],
  ['pods', 'the pods needing attention'],
];

/** Is the word being completed the rollout name of `rollout resume|abort|watch`? Then the cluster is asked. */
export function wantsRolloutName(program: Command, words: readonly string[]): boolean {
  const before = words.slice(0, -1);
  const current = words.at(-1) ?? '';
  if (current.startsWith('-')) return false;
  // The words that are not options or their values.
  const valueTaking = new Set<string>();
  for (const cmd of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)])
    for (const o of cmd.options) if (o.required || o.optional) for (const f of [o.long, o.short]) if (f) valueTaking.add(f);
  const positional: string[] = [];
  for (let i = 0; i < before.length; i++) {
    const w = before[i]!;
    if (w.startsWith('-')) {
      if (valueTaking.has(w)) i++;
      continue;
    }
    positional.push(w);
  }
  return positional.length === 2 && ROLLOUT_COMMANDS.includes(positional.join(' '));
}

/** The lines to print for `complete -- words` (the last word is the one being completed, '' for a new word). */
export async function completionLines(program: Command, words: string[], env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const line = words[0] === '--' ? words.slice(1) : words;
  const contexts = (complete: (value: string, description: string) => void) => {
    for (const name of contextNames(line, env)) complete(name, 'kube context');
  };
  const rollouts = wantsRolloutName(program, line) ? await rolloutNames(line) : [];
  const offerRollouts = (complete: (value: string, description: string) => void) => {
    for (const name of rollouts) complete(name, 'rollout');
  };
  const model = completionModel(program, {
    option: {
      ...Object.fromEntries(CONTEXT_OPTIONS.map((o) => [o, contexts])),
      canary: (complete) => {
        for (const name of fleetClusterNames(line, env)) complete(name, 'workload cluster of the fleet');
      },
      fleet: (complete) => {
        for (const name of fleetNames(env)) complete(name, 'fleet of the fleet file');
      },
    },
    argument: {
      ...Object.fromEntries(ROLLOUT_COMMANDS.map((c) => [`${c}:name`, offerRollouts])),
      'certs renew:names': (complete) => {
        for (const [name, what] of RENEW_NAMES) complete(name, what);
      },
      'fleet use:name': (complete) => {
        for (const name of fleetNames(env)) complete(name, 'fleet of the fleet file');
      },
      'get:resource': (complete) => {
        for (const [name, what] of GET_RESOURCES) complete(name, what);
      },
    },
  });
  // tab prints with console.log: collect its lines.
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  try {
    model.parse([...line]);
  } finally {
    console.log = log;
  }
  return lines;
}

/** Nothing reaches stderr from here on (a library's warning included); a write still completes. */
function silenceStderr(): void {
  process.stderr.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as typeof process.stderr.write;
}

/** Runs `complete`: stdout only, whatever happens. */
export async function runComplete(program: Command, words: string[]): Promise<number> {
  silenceStderr();
  let lines: string[];
  try {
    lines = await completionLines(program, words);
  } catch {
    lines = [':1'];
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
