import fs from 'node:fs';
import path from 'node:path';
import { parseCriLog } from '../../../src/sandbox/sim/container-log.js';

/**
 * What a container of a pod in the sandbox wrote, as its kubelet keeps it
 * (`<cluster dir>/logs/pods/<ns>_<pod>_<uid>/<container>/<n>.log`): the text of every kept
 * instance, oldest first, or only the latest with `latest`. Empty when there is none.
 */
export function sandboxContainerLog(clusterDir: string, namespace: string, pod: string, container: string, latest = false): string {
  const root = path.join(clusterDir, 'logs', 'pods');
  const prefix = `${namespace}_${pod}_`;
  let dirs: string[] = [];
  try {
    dirs = fs.readdirSync(root).filter((d) => d.startsWith(prefix) && !d.slice(prefix.length).includes('_'));
  } catch {
    return '';
  }
  const texts: string[] = [];
  for (const d of dirs) {
    const dir = path.join(root, d, container);
    let files: string[] = [];
    try {
      files = fs.readdirSync(dir).filter((f) => /^\d+\.log$/.test(f));
    } catch {
      continue;
    }
    files.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    if (latest) files = files.slice(-1);
    for (const f of files)
      texts.push(
        parseCriLog(fs.readFileSync(path.join(dir, f), 'utf8'))
          .map((e) => `${e.text}\n`)
          .join(''),
      );
  }
  return texts.join('');
}
