/** A kustomization directory rendered with `kubectl kustomize` (kubectl must be on PATH). */
import { execFile } from 'node:child_process';
import { UserError } from '../errors.js';
import { asObject, expandList, parseYaml, type Loaded } from './bundle-yaml.js';

/** `kubectl kustomize DIR`, parsed. */
export async function renderKustomization(dir: string, kubectl: string): Promise<Loaded[]> {
  const source = `kubectl kustomize ${dir}`;
  const out = await new Promise<string>((resolve, reject) => {
    execFile(kubectl, ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(
          new UserError(
            `${dir} is a kustomization directory; rendering it needs kubectl on PATH (install kubectl, or pass a directory of plain manifests)`,
          ),
        );
      }
      reject(new UserError(`${source} failed: ${lastErrorLine(stderr) ?? err.message}`));
    });
  });
  return parseYaml(out, source)
    .map(({ obj, line }) => ({ obj: asObject(obj, source, line), source }))
    .flatMap(expandList);
}

export function lastErrorLine(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  // Newer kubectl logs a multi-line error as a block: ... "command failed" err=<  (lines)  >
  const block = lines.findIndex((l) => /"command failed" err=<$/.test(l));
  if (block >= 0) {
    const end = lines.indexOf('>', block + 1);
    const joined = lines.slice(block + 1, end < 0 ? undefined : end).join(' ');
    if (joined) return joined.length > 400 ? `${joined.slice(0, 400)}…` : joined;
  }
  let error = lines.find((l) => /^error:/i.test(l)) ?? lines.at(-1);
  if (!error) return undefined;
  // Newer kubectl logs it: E1122 05:13:05.601083 2540 run.go:72] "command failed" err="..."
  error = error.replace(/^[IWEF]\d{4} [\d:.]+\s+\d+ [^\]]+\] /, '');
  const quoted = /^"command failed" err="(.*)"$/.exec(error);
  if (quoted) error = quoted[1]!.replace(/\\"/g, '"');
  error = error.replace(/^error: /i, '');
  return error.length > 400 ? `${error.slice(0, 400)}…` : error;
}
