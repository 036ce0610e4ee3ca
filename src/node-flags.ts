/**
 * V8 settings fleetdeck runs with. While the initial lists stream in (50,000 pods arrive as
 * ~100 MB of JSON), V8 grows the young generation to its largest size, 64 MiB semi-spaces,
 * 128 MiB committed and never given back: that alone was a third of the dashboard's memory.
 * With 4 MiB semi-spaces its RSS stays under 200 MiB at that scale and the lists arrive as fast
 * (`npm run bench -- --clusters`, figure 4).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/**
 * V8 reads these flags only when the process starts, so the entry point replaces its own process
 * with one that has them (process.execve: same PID, terminal and stdio; nothing has been loaded
 * or started yet). Skipped where execve is unavailable (Windows, Node before 22.15) or when the
 * user already chose a semi-space size (NODE_OPTIONS or node's command line).
 */
export function restartWithNodeFlags(): void {
  if (typeof process.execve !== 'function') return;
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((a) => a.startsWith('--max-semi-space-size'))) return;
  const script = process.argv[1];
  if (!script) return;
  process.execve(process.execPath, [process.execPath, ...NODE_FLAGS, ...process.execArgv, script, ...process.argv.slice(2)], process.env);
}
