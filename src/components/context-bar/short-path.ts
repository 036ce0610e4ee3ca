import os from 'node:os';
import path from 'node:path';

/** "/home/ann/.kube/config" → "~/.kube/config". */
export function shortPath(file: string, home = os.homedir()): string {
  if (home && (file === home || file.startsWith(home + path.sep))) return `~${file.slice(home.length)}`;
  return file;
}

/**
 * The kubeconfig files in at most `max` columns: the first one (shortened, then
 * cut to its last segments) and "+N" for the others.
 */
export function filesLabel(files: readonly string[], max: number, home = os.homedir()): string {
  if (files.length === 0) return 'no kubeconfig file';
  const first = shortPath(files[0] ?? '', home);
  const more = files.length > 1 ? ` +${files.length - 1}` : '';
  const room = max - more.length;
  if (first.length <= room) return first + more;
  const base = path.basename(first);
  const cut = `…/${base}`;
  if (cut.length <= room) return cut + more;
  return `${base.slice(0, Math.max(1, room - 1))}…${more}`;
}
