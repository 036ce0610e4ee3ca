/**
 * V8 settings fleetdeck runs with. While the initial lists stream in (50,000 pods arrive as
 * ~100 MB of JSON), V8 grows the young generation to its largest size, 64 MiB semi-spaces,
 * 128 MiB committed and never given back: that alone was a third of the dashboard's memory.
 * With 4 MiB semi-spaces its RSS stays under 200 MiB at that scale and the lists arrive as fast
 * (`npm run bench -- --clusters`, figure 4).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/** Global options that take a value as the next argument (`--kubeconfig FILE`). */
const VALUE_OPTIONS = new Set([
  '--kubeconfig',
  '--context',
  '--hosting-context',
  '--control-plane-context',
  '--namespace',
  '-o',
  '--output',
  '--request-timeout',
  '--log-lines',
]);

/**
 * Whether these arguments run a command that prints once and exits: `status` without
 * `--watch`, `--version`, `--help`. Such a run ends long before a large young generation
 * would matter, and a second process start (a whole Node boot, 60–130 ms on a busy 2-core
 * machine) would be a large part of it.
 */
export function oneShot(args: readonly string[]): boolean {
  if (args.some((a) => a === '--version' || a === '--help' || a === '-h')) return true;
  let command: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    command = a;
    break;
  }
  return command === 'status' && !args.some((a) => a === '--watch' || a === '-w');
}

/**
 * V8 reads these flags only when the process starts, so the entry point replaces its own process
 * with one that has them (process.execve: same PID, terminal and stdio; nothing has been loaded
 * or started yet). Skipped where execve is unavailable (Windows, Node before 22.15), when the
 * user already chose a semi-space size (NODE_OPTIONS or node's command line), and for one-shot
 * commands (see oneShot).
 */
export function restartWithNodeFlags(): void {
  if (typeof process.execve !== 'function') return;
  if (oneShot(process.argv.slice(2))) return;
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((a) => a.startsWith('--max-semi-space-size'))) return;
  const script = process.argv[1];
  if (!script) return;
  process.execve(process.execPath, [process.execPath, ...NODE_FLAGS, ...process.execArgv, script, ...process.argv.slice(2)], process.env);
}
