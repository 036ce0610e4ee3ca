/**
 * The operating systems `fleetdeck preflight` accepts, as data: an os-release ID (or one of its
 * ID_LIKE names is NOT enough: derivatives must be listed themselves) and the VERSION_ID majors
 * (or exact versions) supported. Edit this list, not the check.
 */
export interface SupportedOs {
  /** os-release ID, lower case. */
  id: string;
  /** Shown in the hint. */
  name: string;
  /** VERSION_IDs accepted: "9" matches 9, 9.4…; "22.04" matches exactly 22.04 (and 22.04.x). */
  versions: string[];
}

export const SUPPORTED_OS: readonly SupportedOs[] = [
  { id: 'ubuntu', name: 'Ubuntu', versions: ['20.04', '22.04', '24.04'] },
  { id: 'debian', name: 'Debian', versions: ['11', '12'] },
  { id: 'rhel', name: 'Red Hat Enterprise Linux', versions: ['8', '9'] },
  { id: 'rocky', name: 'Rocky Linux', versions: ['8', '9'] },
  { id: 'almalinux', name: 'AlmaLinux', versions: ['8', '9'] },
  { id: 'ol', name: 'Oracle Linux', versions: ['8', '9'] },
  { id: 'centos', name: 'CentOS Stream', versions: ['9'] },
  { id: 'amzn', name: 'Amazon Linux', versions: ['2023'] },
  { id: 'sles', name: 'SUSE Linux Enterprise Server', versions: ['15'] },
  { id: 'flatcar', name: 'Flatcar Container Linux', versions: [''] },
];

/** The entry that accepts this ID and VERSION_ID, if any ("" in versions: any version). */
export function supportedOs(id: string, versionId: string): SupportedOs | undefined {
  const entry = SUPPORTED_OS.find((o) => o.id === id.toLowerCase());
  if (!entry) return undefined;
  const ok = entry.versions.some((v) => v === '' || versionId === v || versionId.startsWith(`${v}.`));
  return ok ? entry : undefined;
}

/** "Ubuntu 20.04/22.04/24.04, Debian 11/12, …" for hints. */
export function describeSupportedOs(): string {
  return SUPPORTED_OS.map((o) => (o.versions.every((v) => v === '') ? o.name : `${o.name} ${o.versions.join('/')}`)).join(', ');
}
