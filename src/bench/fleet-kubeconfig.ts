/**
 * A fleet of many contexts on few API servers: the sandbox's contexts repeated under distinct
 * names, round-robin (fleet-01-<first>, fleet-02-<second>, …), each naming the sandbox's own
 * cluster and user. 30 contexts on a 3-cluster sandbox reach each API server through 10 names,
 * as an operator's kubeconfig with many contexts per cluster (namespaces, roles) does.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';

interface NamedContext {
  name: string;
  context: Record<string, unknown>;
}

/** Writes the fleet kubeconfig (mode 0600, it holds the sandbox's keys) and returns its path. */
export async function fleetKubeconfig(sandboxKubeconfig: string, contexts: number): Promise<string> {
  if (!Number.isInteger(contexts) || contexts < 1) throw new Error(`fleet kubeconfig: ${contexts} is not a number of contexts`);
  const doc = parse(await fs.readFile(sandboxKubeconfig, 'utf8')) as Record<string, unknown> | null;
  const base = (doc?.contexts ?? []) as NamedContext[];
  if (!Array.isArray(base) || base.length === 0) throw new Error(`fleet kubeconfig: ${sandboxKubeconfig} has no context`);
  const width = Math.max(2, String(contexts).length);
  const repeated = Array.from({ length: contexts }, (_, i) => {
    const from = base[i % base.length]!;
    return { name: `fleet-${String(i + 1).padStart(width, '0')}-${from.name}`, context: { ...from.context } };
  });
  const out = { ...doc, contexts: repeated, 'current-context': repeated[0]!.name };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleetdeck-fleet-'));
  const file = path.join(dir, 'kubeconfig');
  await fs.writeFile(file, stringify(out), { mode: 0o600 });
  return file;
}
