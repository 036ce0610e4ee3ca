/**
 * Node's on-disk compile cache (module.enableCompileCache, Node ≥ 22.1) for fleetdeck's own
 * bundle: V8 keeps the bytecode of the ~4 MB of JavaScript a command loads (client-node's
 * generated API alone is over 1 MB), and the next start reads it instead of compiling again —
 * about a third of the CPU spent loading the modules of `fleetdeck status`. The cache lives in
 * the user's own cache folder (`$XDG_CACHE_HOME/fleetdeck/compile-cache`, else
 * `~/.cache/fleetdeck/compile-cache`), not in a /tmp folder other users of a shared bastion
 * could write to. NODE_DISABLE_COMPILE_CACHE=1 turns it off; any failure leaves it off.
 */
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

export function enableCompileCache(): void {
  try {
    const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
    module.enableCompileCache?.(path.join(base, 'fleetdeck', 'compile-cache'));
  } catch {
    // No cache: startup only compiles as it would anyway.
  }
}
