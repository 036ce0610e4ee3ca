/**
 * Which Kubernetes versions each Nova release supports, as the install guide's compatibility
 * table lists them. Kept as data: a new release is one more row.
 */
import { parseKubeVersion, type KubeMinor } from '../kube/api/discovery.js';

/** One row of the compatibility table. */
export interface SupportEntry {
  /** Nova release line, e.g. `v0.7`. */
  nova: string;
  /** Supported Kubernetes minor versions, e.g. `['1.25', '1.26']`. */
  kubernetes: readonly string[];
}

/** The install guide's "Kubernetes compatibility" table. */
export const SUPPORT_MATRIX: readonly SupportEntry[] = [
  { nova: 'v0.7', kubernetes: ['1.25', '1.26', '1.27', '1.28'] },
  { nova: 'v0.6', kubernetes: ['1.24', '1.25'] },
];

/** The Nova release line fleetdeck installs (its bundle ships agent v0.7.0). */
export const NOVA_VERSION = 'v0.7';

/** `1.25` for a parsed version. */
export function formatMinor(v: KubeMinor): string {
  return `${v.major}.${v.minor}`;
}

/** The row for a Nova release line, if the matrix has one. */
export function supportEntry(nova: string, matrix: readonly SupportEntry[] = SUPPORT_MATRIX): SupportEntry | undefined {
  return matrix.find((e) => e.nova === nova);
}

/**
 * The supported versions of a row as people write them: a contiguous run as a range
 * (`1.25–1.28`), anything else as a list (`1.24, 1.26`).
 */
export function describeRange(entry: SupportEntry): string {
  const parsed = entry.kubernetes.map(parseKubeVersion).filter((v): v is KubeMinor => v !== undefined);
  parsed.sort((a, b) => a.major - b.major || a.minor - b.minor);
  if (parsed.length === 0) return 'none';
  const first = parsed[0]!;
  const last = parsed[parsed.length - 1]!;
  const contiguous = parsed.every((v, i) => v.major === first.major && v.minor === first.minor + i);
  if (parsed.length > 1 && contiguous) return `${formatMinor(first)}–${formatMinor(last)}`;
  return parsed.map(formatMinor).join(', ');
}

/** Whether a server version is in a row's list (compared by major.minor). */
export function isSupported(version: string, entry: SupportEntry): boolean {
  const v = parseKubeVersion(version);
  if (!v) return false;
  return entry.kubernetes.some((k) => {
    const s = parseKubeVersion(k);
    return s !== undefined && s.major === v.major && s.minor === v.minor;
  });
}
