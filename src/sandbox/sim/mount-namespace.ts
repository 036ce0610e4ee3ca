/**
 * How a pod's process is started in its own mount namespace: the cluster's hosts file over
 * /etc/hosts and, for containers that read their volumes at the paths the pod names (the
 * fleetdeck image reads its service account at /var/run/secrets/kubernetes.io/serviceaccount),
 * each volume bind-mounted at its mount path. Mounts are private to the namespace; a mount
 * path missing on the machine is created (an empty directory, or an empty file for a file).
 */
import fs from 'node:fs';
import path from 'node:path';

/** A local directory (or file) shown to the process at `target`. */
export interface BindMount {
  source: string;
  target: string;
  readOnly: boolean;
}

/**
 * The script `sh -c` runs inside the namespace: `$1` is the hosts file, then triples of
 * source, target and `ro`/`rw` up to a `--`, then the command to exec (which keeps the PID).
 */
export const NAMESPACE_SCRIPT = [
  'set -e',
  'mount --bind "$1" /etc/hosts',
  'shift',
  'while [ "$1" != -- ]; do',
  '  if [ -d "$1" ]; then mkdir -p "$2"; else mkdir -p "$(dirname "$2")"; [ -e "$2" ] || : > "$2"; fi',
  '  mount --bind "$1" "$2"',
  '  if [ "$3" = ro ]; then mount -o remount,bind,ro "$2"; fi',
  '  shift 3',
  'done',
  'shift',
  'exec "$@"',
].join('\n');

/** A mount path without `..`, `//` or a trailing slash. */
const normal = (target: string) => path.posix.normalize(target).replace(/(.)\/+$/, '$1');

/** Mount paths the sandbox never binds over: the root, and /etc/hosts (the cluster's hosts file is there). */
function bindable(target: string): boolean {
  const t = normal(target);
  return t.startsWith('/') && t !== '/' && t !== '/etc/hosts';
}

/** The `unshare` command line that runs `file argv…` in its own mount namespace (see the module comment). */
export function namespacedCommand(
  hostsFile: string,
  binds: readonly BindMount[],
  file: string,
  argv: readonly string[],
): { file: string; argv: string[] } {
  const triples = binds.filter((b) => bindable(b.target)).flatMap((b) => [b.source, normal(b.target), b.readOnly ? 'ro' : 'rw']);
  return {
    file: 'unshare',
    argv: [
      '--mount',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      NAMESPACE_SCRIPT,
      'sandbox-pod',
      hostsFile,
      ...triples,
      '--',
      file,
      ...argv,
    ],
  };
}

/**
 * Without a mount namespace: a directory under the pod's directory where every mount path
 * exists as a link to its volume (`<root>/var/run/secrets/kubernetes.io/serviceaccount/token`
 * and so on), for programs that take a path prefix. Made afresh; returns the root.
 */
export function linkedRoot(root: string, binds: readonly BindMount[]): string {
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  for (const b of binds) {
    if (!bindable(b.target)) continue;
    const link = path.join(root, normal(b.target));
    fs.mkdirSync(path.dirname(link), { recursive: true, mode: 0o755 });
    fs.rmSync(link, { recursive: true, force: true });
    fs.symlinkSync(b.source, link);
  }
  return root;
}
