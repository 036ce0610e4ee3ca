/** The features and sizes asked for, checked against the catalogue (pure; mistakes are one-line UsageErrors). */
import { UsageError } from '../errors.js';
import { catalogueVolumes, type Catalogue, type CatalogueFeature } from './catalogue.js';

/** The catalogue's features the names select (name or label, any case); unknown → UsageError naming the known ones. */
export function selectFeatures(catalogue: Catalogue, names: string[]): CatalogueFeature[] {
  const wanted = new Set<string>();
  for (const raw of names.map((n) => n.trim()).filter(Boolean)) {
    const f = catalogue.features.find((x) => x.name.toLowerCase() === raw.toLowerCase() || x.label.toLowerCase() === raw.toLowerCase());
    if (!f)
      throw new UsageError(
        `unknown feature "${raw}" in catalogue ${catalogue.name} (known: ${catalogue.features.map((x) => x.name).join(', ')})`,
      );
    wanted.add(f.name);
  }
  return catalogue.features.filter((f) => wanted.has(f.name));
}

/** The features enabled by default. */
export function defaultFeatures(catalogue: Catalogue): string[] {
  return catalogue.features.filter((f) => f.default).map((f) => f.name);
}

/**
 * `--size VOLUME=GB`: a whole or decimal number of GB greater than 0. Any mistake is a
 * UsageError of one line.
 */
export function parseSizeArg(arg: string): { name: string; gb: number } {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new UsageError(`--size ${arg}: expected VOLUME=GB (e.g. --size etcd-data=8)`);
  const name = arg.slice(0, eq).trim();
  const value = arg.slice(eq + 1).trim();
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(value)) throw new UsageError(`--size ${arg}: "${value}" is not a number of GB`);
  const gb = Number(value);
  if (!(gb > 0)) throw new UsageError(`--size ${arg}: the size must be greater than 0 GB`);
  return { name, gb };
}

/** Checks the sizes against the catalogue and the enabled features. */
export function checkSizes(catalogue: Catalogue, features: CatalogueFeature[], sizes: Record<string, number>): void {
  const all = catalogueVolumes(catalogue);
  const enabled = new Set(features.map((f) => f.name));
  for (const [name, gb] of Object.entries(sizes)) {
    const v = all.find((x) => x.name === name);
    if (!v)
      throw new UsageError(
        `unknown volume "${name}" in --size (volumes of the enabled features: ${
          all
            .filter((x) => enabled.has(x.feature))
            .map((x) => x.name)
            .join(', ') || 'none'
        })`,
      );
    if (!enabled.has(v.feature))
      throw new UsageError(`volume "${name}" belongs to feature ${v.feature}, which is not enabled (add it to --features)`);
    if (!(typeof gb === 'number' && Number.isFinite(gb) && gb > 0))
      throw new UsageError(`the size of volume "${name}" must be greater than 0 GB`);
  }
}
