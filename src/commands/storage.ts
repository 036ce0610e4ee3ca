/**
 * `fleetdeck storage estimate`: the storage of a cluster (per node, from the Kubernetes API) or of
 * this host (`--local`: lsblk and the LVM tools), and whether the volumes of a catalogue's
 * enabled features fit on every node. Never asks: features, sizes and pools come from flags.
 * Exit codes: 0 it fits, 1 it does not (or the cluster cannot be read), 2 bad input.
 */
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { UsageError, UserError } from '../errors.js';
import { loadCatalogue, resolveCatalogueFile, type Catalogue } from '../storage/catalogue.js';
import { describeNodeStorage } from '../report/storage/describe.js';
import { estimate, type Estimate, type Pools } from '../storage/estimate.js';
import { estimateLines, valuesOf } from '../report/storage/estimate-text.js';
import type { ClusterStorage } from '../storage/inventory.js';
import { defaultFeatures, parseSizeArg } from '../storage/selection.js';
import { requireOutput, type GlobalOptions } from '../session/options.js';
import { startSession } from '../session/session.js';
import { document } from '../output/format.js';

export interface StorageEstimateOptions extends GlobalOptions {
  local?: boolean;
  catalogue?: string;
  features?: string[];
  size?: string[];
  sharedPool?: string;
  unsharedPool?: string;
  values?: string;
  force?: boolean;
}

const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** `--size a=1 --size b=2,c=3` → { a: 1, b: 2, c: 3 }; a volume given twice is refused. */
export function parseSizes(args: string[] | undefined): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const arg of (args ?? [])
    .flatMap((a) => a.split(','))
    .map((a) => a.trim())
    .filter(Boolean)) {
    const { name, gb } = parseSizeArg(arg);
    if (name in sizes) throw new UsageError(`--size ${name} is given twice`);
    sizes[name] = gb;
  }
  return sizes;
}

/** Refuses a values file that would overwrite without --force, or that cannot be written. */
function checkValuesTarget(file: string, force: boolean): void {
  const dir = path.dirname(path.resolve(file));
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(file);
  } catch {
    st = undefined;
  }
  if (st?.isDirectory()) throw new UsageError(`--values ${file} is a directory; give a file name`);
  if (st && !force) throw new UsageError(`--values ${file} exists; pass --force to overwrite it`);
  if (!fs.existsSync(dir)) throw new UsageError(`--values ${file}: directory ${dir} does not exist`);
}

/** Writes the values file, mode 0644: created exclusively, or replaced whole with --force. */
function writeValues(file: string, text: string, force: boolean): void {
  try {
    if (!force) {
      fs.writeFileSync(file, text, { flag: 'wx', mode: 0o644 });
    } else {
      const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
      fs.writeFileSync(tmp, text, { mode: 0o644 });
      fs.renameSync(tmp, file);
    }
    fs.chmodSync(file, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`--values ${file} exists; pass --force to overwrite it`);
    throw new UsageError(`--values ${file} cannot be written (${(err as Error).message.split('\n')[0]})`);
  }
}

function valuesText(catalogue: Catalogue, est: Estimate): string {
  const head = `# Storage chosen with \`fleetdeck storage estimate\` (catalogue ${catalogue.name}${catalogue.file ? `, ${catalogue.file}` : ''}).\n# Sizes in GiB; ${est.ok ? 'the estimate found they fit on every node' : `the estimate found they do not fit: ${est.verdict}`}.\n`;
  return head + stringify(valuesOf(catalogue, est));
}

/** The lines before the estimate: where the inventory comes from, what could not be read, each node's storage. */
function inventoryLines(storage: ClusterStorage, where: string): string[] {
  const lines: string[] = [];
  const n = storage.nodes.length;
  lines.push(
    storage.source === 'local'
      ? `Storage of this host (${storage.nodes[0]?.node ?? 'unknown'})`
      : `Storage of ${where}: ${n} node${n === 1 ? '' : 's'}`,
  );
  for (const m of storage.missing) lines.push(`Not read: ${m}`);
  for (const node of storage.nodes) {
    lines.push('');
    if (storage.source === 'cluster') lines.push(`Node ${node.node}`);
    lines.push(...describeNodeStorage(node));
  }
  if (storage.storageClasses.length) {
    lines.push('');
    lines.push(
      `StorageClasses: ${storage.storageClasses.map((c) => `${c.name} (${c.provisioner}${c.default ? ', default' : ''})`).join(', ')}`,
    );
  }
  return lines;
}

export async function runStorageEstimate(opts: StorageEstimateOptions): Promise<number> {
  const output = requireOutput(opts.output);
  if (opts.local && (opts.context ?? []).length) throw new UsageError('--local reads this host and --context a cluster: give one of them');
  if (opts.force && opts.values === undefined) throw new UsageError('--force only applies to --values FILE');
  if (opts.sharedPool !== undefined && opts.sharedPool === opts.unsharedPool)
    throw new UsageError(`volume group ${opts.sharedPool} cannot serve both shared and unshared volumes`);
  // Everything the flags can get wrong is checked before anything is read.
  const catalogue = loadCatalogue(resolveCatalogueFile(opts.catalogue));
  const features =
    opts.features === undefined
      ? defaultFeatures(catalogue)
      : opts.features
          .flatMap((f) => f.split(','))
          .map((f) => f.trim())
          .filter(Boolean);
  const sizes = parseSizes(opts.size);
  const pools: Pools = {
    ...(opts.sharedPool !== undefined ? { shared: opts.sharedPool } : {}),
    ...(opts.unsharedPool !== undefined ? { unshared: opts.unsharedPool } : {}),
  };
  // Features and sizes against the catalogue, on no storage at all (pools need the inventory).
  estimate(catalogue, { source: 'local', nodes: [], storageClasses: [], volumes: [], claims: [], missing: [] }, { features, sizes });
  if (opts.values !== undefined) checkValuesTarget(opts.values, opts.force === true);

  let storage: ClusterStorage;
  let where: string;
  if (opts.local) {
    const { readLocalInventory } = await import('../storage/local.js');
    storage = await readLocalInventory();
    where = 'this host';
  } else {
    const { kc, context } = startSession(opts).one('storage estimate reads one cluster', {
      noCurrentHint: '; give --context C, or --local for this host',
    });
    const { readClusterInventory } = await import('../storage/cluster.js');
    where = `context ${context}`;
    try {
      storage = await readClusterInventory(kc);
    } catch (err) {
      throw new UserError(
        `${where}: the cluster cannot be read (${(err instanceof Error ? err.message : String(err)).split('\n')[0]}); check the context or use --local for this host`,
        1,
      );
    }
  }

  const est = estimate(catalogue, storage, { features, sizes, pools });
  if (opts.values !== undefined) writeValues(opts.values, valuesText(catalogue, est), opts.force === true);

  if (output !== 'text') {
    write(
      document(output, {
        source: storage.source,
        context: opts.local ? null : where.replace(/^context /, ''),
        catalogue: { name: catalogue.name, file: catalogue.file ?? null },
        inventory: storage,
        features: catalogue.features.map((f) => ({ name: f.name, label: f.label, enabled: est.features.includes(f.name) })),
        pools: est.pools,
        poolReason: est.poolReason,
        volumes: est.volumes,
        required: est.required,
        available: est.available,
        perNode: est.perNode,
        skipped: est.skipped,
        ok: est.ok,
        verdict: est.verdict,
        values: opts.values ?? null,
      }),
    );
  } else {
    const lines = [...inventoryLines(storage, where), '', ...estimateLines(catalogue, est)];
    if (opts.values !== undefined) lines.push(`Values written to ${opts.values}`);
    write(lines.join('\n'));
  }
  return est.ok ? 0 : 1;
}
