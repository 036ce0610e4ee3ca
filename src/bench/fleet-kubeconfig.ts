/**
 * A fleet of many contexts on few API servers, as the fleet figures measure it: a kubeconfig
 * whose contexts are the sandbox's contexts repeated round-robin under distinct names
 * (`kind-cp`, `kind-workload-1`, `kind-workload-2`, `kind-cp-2`, …), each pointing at the same
 * cluster and user as its original. The one-shot lists every name on its own; the live dashboard
 * serves names that reach the same server as the same user with one monitor (kube/shared-contexts.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';

interface NamedContext {
  name: string;
  context: Record<string, unknown>;
}

/**
 * Writes a kubeconfig with `contexts` contexts made from the sandbox kubeconfig's (round-robin:
 * the i-th is a copy of original i mod n, named as the original the first time round and
 * `<original>-<k+1>` the k-th time after) and returns its path (a new temporary file, 0600: it
 * holds client keys).
 */
export async function fleetKubeconfig(sandboxKubeconfig: string, contexts: number): Promise<string> {
  const doc = parse(await fs.promises.readFile(sandboxKubeconfig, 'utf8')) as Record<string, unknown> & { contexts?: NamedContext[] };
  const originals = doc.contexts ?? [];
  if (originals.length === 0) throw new Error(`${sandboxKubeconfig} has no contexts`);
  const copies: NamedContext[] = [];
  for (let i = 0; i < contexts; i++) {
    const o = originals[i % originals.length]!;
    const round = Math.floor(i / originals.length);
    copies.push({ name: round === 0 ? o.name : `${o.name}-${round + 1}`, context: { ...o.context } });
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fleetdeck-bench-fleet-'));
  const file = path.join(dir, 'kubeconfig');
  await fs.promises.writeFile(file, stringify({ ...doc, contexts: copies, 'current-context': copies[0]?.name ?? '' }), { mode: 0o600 });
  return file;
}
