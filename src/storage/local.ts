/**
 * The storage of the host fleetdeck runs on, as the seed's `kloudspot storage` reads it:
 * disks and partitions from `lsblk` (JSON, bytes), volume groups from LVM's JSON reports
 * (`vgs`, and `pvs` for which partition is in which volume group). A tool that is missing or
 * fails is one line in `missing`, never an error.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import { emptyStorage, type ClusterStorage, type Disk, type Partition, type VolumeGroup } from './inventory.js';

/** A byte count from a tool's report (a number or a numeric string); undefined when it is not one. */
export function reportBytes(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string' || !/^\s*\d+(\.\d+)?\s*$/.test(v)) return undefined;
  return Math.round(Number(v));
}

/** Runs a command and resolves with its standard output; rejects (with `code: 'ENOENT'` when it is not installed) otherwise. */
export type Run = (cmd: string, args: string[]) => Promise<string>;

export const LSBLK_ARGS = ['--json', '--bytes', '--output', 'NAME,PATH,SIZE,TYPE,MOUNTPOINT,FSTYPE'];
export const VGS_ARGS = ['--reportformat', 'json', '--units', 'b', '--nosuffix', '-o', 'vg_name,vg_size,vg_free'];
export const PVS_ARGS = ['--reportformat', 'json', '--units', 'b', '--nosuffix', '-o', 'pv_name,vg_name'];

/** One device of `lsblk --json` (util-linux before 2.33 sends every value as a string). */
interface LsblkDevice {
  name?: string;
  path?: string | null;
  size?: number | string | null;
  type?: string | null;
  mountpoint?: string | null;
  fstype?: string | null;
  children?: LsblkDevice[];
}

/** Top-level devices that are storage: disks (not RAM-backed zram), multipath and RAID, with a size. */
const DISK_TYPES = new Set(['disk', 'mpath', 'raid0', 'raid1', 'raid4', 'raid5', 'raid6', 'raid10']);

class ReportError extends Error {}

function parseJson(tool: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ReportError(`${tool}: output is not JSON`);
  }
}

function devicePath(d: LsblkDevice): string {
  if (d.path) return d.path;
  const name = d.name ?? '';
  return d.type === 'lvm' || d.type === 'crypt' ? `/dev/mapper/${name}` : `/dev/${name}`;
}

function partitionOf(d: LsblkDevice, pvToVg: Map<string, string>): Partition {
  const path = devicePath(d);
  const p: Partition = { path, sizeBytes: reportBytes(d.size) ?? 0 };
  if (d.mountpoint) p.mountpoint = d.mountpoint;
  if (d.fstype) p.fstype = d.fstype;
  const vg = pvToVg.get(path);
  if (vg) p.volumeGroup = vg;
  if (d.children?.length) p.children = d.children.map((c) => partitionOf(c, pvToVg));
  return p;
}

/**
 * `lsblk --json --bytes --output NAME,PATH,SIZE,TYPE,MOUNTPOINT,FSTYPE` as disks with their
 * partitions and what sits on them; `pvToVg` (from `pvs`) says which device is in which volume
 * group. Loop devices, optical drives, zram and empty devices are left out.
 */
export function parseLsblk(text: string, pvToVg: Map<string, string> = new Map()): Disk[] {
  const report = parseJson('lsblk', text) as { blockdevices?: LsblkDevice[] };
  if (!report || !Array.isArray(report.blockdevices)) throw new ReportError('lsblk: no "blockdevices" in its output');
  const disks: Disk[] = [];
  for (const d of report.blockdevices) {
    const size = reportBytes(d.size) ?? 0;
    if (!d.type || !DISK_TYPES.has(d.type) || size === 0 || /^zram\d/.test(d.name ?? '')) continue;
    const path = devicePath(d);
    const disk: Disk = { path, sizeBytes: size, partitions: (d.children ?? []).map((c) => partitionOf(c, pvToVg)) };
    if (d.mountpoint) disk.mountpoint = d.mountpoint;
    if (d.fstype) disk.fstype = d.fstype;
    const vg = pvToVg.get(path);
    if (vg) disk.volumeGroup = vg;
    disks.push(disk);
  }
  return disks;
}

/** LVM's JSON report (`--reportformat json`; values are strings, `json_std` numbers): the rows of `section`. */
function reportRows(tool: string, text: string, section: 'vg' | 'pv'): Record<string, unknown>[] {
  const report = parseJson(tool, text) as { report?: Record<string, unknown>[] };
  if (!report || !Array.isArray(report.report)) throw new ReportError(`${tool}: no "report" in its output`);
  return report.report.flatMap((r) => (Array.isArray(r?.[section]) ? (r[section] as Record<string, unknown>[]) : []));
}

/** `vgs --reportformat json --units b --nosuffix -o vg_name,vg_size,vg_free`. */
export function parseVgs(text: string): VolumeGroup[] {
  return reportRows('vgs', text, 'vg')
    .filter((r) => typeof r.vg_name === 'string' && r.vg_name !== '')
    .map((r) => ({ name: r.vg_name as string, sizeBytes: reportBytes(r.vg_size) ?? 0, freeBytes: reportBytes(r.vg_free) ?? 0 }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** `pvs --reportformat json -o pv_name,vg_name`: physical volume → volume group (PVs in no group left out). */
export function parsePvs(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of reportRows('pvs', text, 'pv')) {
    const pv = r.pv_name;
    const vg = r.vg_name;
    if (typeof pv === 'string' && typeof vg === 'string' && pv && vg) out.set(pv, vg);
  }
  return out;
}

const TOOLS = {
  lsblk: { what: 'disks', pkg: 'util-linux' },
  vgs: { what: 'volume groups', pkg: 'lvm2' },
  pvs: { what: "partitions' volume groups", pkg: 'lvm2' },
} as const;

/** The `missing` line for a tool that could not be run or whose output could not be read. */
export function toolFailure(tool: keyof typeof TOOLS, err: unknown): string {
  const { what, pkg } = TOOLS[tool];
  if ((err as { code?: unknown })?.code === 'ENOENT') return `${tool} not installed: ${what} not read (install ${pkg})`;
  if (err instanceof ReportError) return `${err.message}: ${what} not read`;
  return `${tool} failed: ${firstLine(err)}: ${what} not read`;
}

function firstLine(err: unknown): string {
  const e = err as { stderr?: unknown; message?: unknown };
  const text = typeof e?.stderr === 'string' && e.stderr.trim() ? e.stderr : typeof e?.message === 'string' ? e.message : String(err);
  // LVM prefixes warnings (running as non-root…); the reason is the first other line.
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => !/^WARNING:/i.test(l)) ?? lines[0] ?? 'unknown error';
}

/** Runs a command with no shell; stderr travels on the rejection. */
export const execRun: Run = (cmd, args) =>
  new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 16 * 1024 * 1024, timeout: 30_000, env: { ...process.env, LC_ALL: 'C' } }, (err, stdout, stderr) => {
      if (err) reject(Object.assign(err, { stderr: String(stderr ?? '') }));
      else resolve(String(stdout));
    });
  });

/**
 * This host's storage: one node (`host`, default the host name) with its disks and volume
 * groups. Never rejects for a missing or failing tool: that is a line in `missing`.
 */
export async function readLocalInventory(run: Run = execRun, host: string = os.hostname()): Promise<ClusterStorage> {
  const out = emptyStorage('local');
  const attempt = async <T>(tool: keyof typeof TOOLS, args: string[], parse: (text: string) => T): Promise<T | { failed: unknown }> => {
    try {
      return parse(await run(tool, args));
    } catch (err) {
      return { failed: err };
    }
  };
  const failed = (v: unknown): v is { failed: unknown } => typeof v === 'object' && v !== null && 'failed' in v;
  const [lsblk, vgs, pvs] = await Promise.all([
    attempt('lsblk', LSBLK_ARGS, (t) => t),
    attempt('vgs', VGS_ARGS, parseVgs),
    attempt('pvs', PVS_ARGS, parsePvs),
  ]);
  const pvToVg = failed(pvs) ? new Map<string, string>() : pvs;
  let disks: Disk[] = [];
  if (failed(lsblk)) out.missing.push(toolFailure('lsblk', lsblk.failed));
  else {
    try {
      disks = parseLsblk(lsblk, pvToVg);
    } catch (err) {
      out.missing.push(toolFailure('lsblk', err));
    }
  }
  let volumeGroups: VolumeGroup[] = [];
  if (failed(vgs)) out.missing.push(toolFailure('vgs', vgs.failed));
  else volumeGroups = vgs;
  // pvs comes with vgs (lvm2): say it only when vgs worked and pvs did not.
  if (failed(pvs) && !failed(vgs)) out.missing.push(toolFailure('pvs', pvs.failed));
  for (const vg of volumeGroups) {
    const on = [...pvToVg].filter(([, name]) => name === vg.name).map(([pv]) => pv);
    if (on.length) vg.pvs = on.sort();
  }
  out.nodes.push({ node: host, volumeGroups, disks });
  return out;
}
