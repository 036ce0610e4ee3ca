import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEED_NMSC02_LINES } from '../helpers/objects/seed-storage.js';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../helpers/cli/tools.js';
import { describeNodeStorage } from '../../src/report/storage/describe.js';
import { LSBLK_ARGS, PVS_ARGS, VGS_ARGS, parseLsblk, readLocalInventory, type Run } from '../../src/storage/local.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/storage');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const GiB = 2 ** 30;

const notInstalled = (cmd: string) => Object.assign(new Error(`spawn ${cmd} ENOENT`), { code: 'ENOENT' });

/** A runner answering from recorded outputs; other commands are not installed. */
function recorded(outputs: Record<string, string | Error>): Run & { calls: string[][] } {
  const calls: string[][] = [];
  const run = async (cmd: string, args: string[]) => {
    calls.push([cmd, ...args]);
    const out = outputs[cmd];
    if (out === undefined) throw notInstalled(cmd);
    if (out instanceof Error) throw out;
    return out;
  };
  return Object.assign(run, { calls });
}

describe('the local host as the seed shows it', () => {
  const seed = () => recorded({ lsblk: fixture('seed-lsblk.json'), vgs: fixture('seed-vgs.json'), pvs: fixture('seed-pvs.json') });

  it("reproduces the seed's volume groups and disks from lsblk, vgs and pvs", async () => {
    const storage = await readLocalInventory(seed(), 'nmsc02');
    expect(storage.source).toBe('local');
    expect(storage.missing).toEqual([]);
    expect(storage.nodes.map((n) => n.node)).toEqual(['nmsc02']);
    expect(describeNodeStorage(storage.nodes[0]!)).toEqual(SEED_NMSC02_LINES);
  });

  it('keeps the exact byte counts and what uses each partition', async () => {
    const [node] = (await readLocalInventory(seed(), 'nmsc02')).nodes;
    expect(node!.volumeGroups).toEqual([
      { name: 'vg_data', sizeBytes: 99996401664, freeBytes: 93553459200, pvs: ['/dev/sdb1'] },
      { name: 'vg_share', sizeBytes: 114743230464, freeBytes: 0, pvs: ['/dev/sdb2'] },
    ]);
    const sdb = node!.disks.find((d) => d.path === '/dev/sdb')!;
    expect(sdb.sizeBytes).toBe(200 * GiB);
    expect(sdb.partitions[1]).toEqual({
      path: '/dev/sdb2',
      sizeBytes: 114746267648,
      fstype: 'LVM2_member',
      volumeGroup: 'vg_share',
      children: [{ path: '/dev/mapper/ubuntu--vg-shared', sizeBytes: 100 * GiB }],
    });
    // Loop devices and optical drives are not disks to put volumes on.
    expect(node!.disks.map((d) => d.path)).toEqual(['/dev/sda', '/dev/sdb']);
  });

  it('asks lsblk, vgs and pvs for JSON in bytes', async () => {
    const run = seed();
    await readLocalInventory(run, 'h');
    expect(run.calls.sort()).toEqual(
      [
        ['lsblk', ...LSBLK_ARGS],
        ['pvs', ...PVS_ARGS],
        ['vgs', ...VGS_ARGS],
      ].sort(),
    );
    expect(LSBLK_ARGS.join(' ')).toBe('--json --bytes --output NAME,PATH,SIZE,TYPE,MOUNTPOINT,FSTYPE');
    expect(VGS_ARGS.join(' ')).toBe('--reportformat json --units b --nosuffix -o vg_name,vg_size,vg_free');
  });
});

describe('the local host without LVM tools or with failing ones', () => {
  it("reads this machine's recorded lsblk and says in one line that vgs is not installed", async () => {
    const storage = await readLocalInventory(recorded({ lsblk: fixture('vm-lsblk.json') }), 'vm');
    expect(storage.missing).toEqual(['vgs not installed: volume groups not read (install lvm2)']);
    const [node] = storage.nodes;
    expect(node!.volumeGroups).toEqual([]);
    // zram0 (RAM, size 0) is left out; vda is used whole, mounted as /.
    expect(node!.disks).toEqual([{ path: '/dev/vda', sizeBytes: 256 * GiB, partitions: [], mountpoint: '/' }]);
    expect(describeNodeStorage(node!)).toEqual(['Volume Groups: none', '', 'Disks:', '/dev/vda (256G) mounted as /']);
  });

  it('says so when lsblk is missing too, and still resolves', async () => {
    const storage = await readLocalInventory(recorded({}), 'h');
    expect(storage.missing).toEqual([
      'lsblk not installed: disks not read (install util-linux)',
      'vgs not installed: volume groups not read (install lvm2)',
    ]);
    expect(storage.nodes).toEqual([{ node: 'h', volumeGroups: [], disks: [] }]);
  });

  it('gives the reason LVM refused (not its warnings) when vgs fails, e.g. without root', async () => {
    const denied = Object.assign(new Error('Command failed: vgs'), {
      code: 5,
      stderr:
        '  WARNING: Running as a non-root user. Functionality may be unavailable.\n  /run/lock/lvm/P_global:aux: open failed: Permission denied\n',
    });
    const storage = await readLocalInventory(recorded({ lsblk: fixture('seed-lsblk.json'), vgs: denied, pvs: denied }), 'h');
    expect(storage.missing).toEqual(['vgs failed: /run/lock/lvm/P_global:aux: open failed: Permission denied: volume groups not read']);
    // Without pvs the partitions still say they are LVM physical volumes.
    expect(describeNodeStorage(storage.nodes[0]!)).toContain('  /dev/sdb1 (93.1G) LVM physical volume');
  });

  it('says when a tool answers something that is not its JSON report', async () => {
    const storage = await readLocalInventory(recorded({ lsblk: 'NAME SIZE\nsda 50G', vgs: '{}', pvs: fixture('seed-pvs.json') }), 'h');
    expect(storage.missing).toEqual([
      'lsblk: output is not JSON: disks not read',
      'vgs: no "report" in its output: volume groups not read',
    ]);
  });

  it('reads the lsblk of util-linux before 2.33 (values as strings, no PATH)', () => {
    const old = JSON.stringify({
      blockdevices: [
        {
          name: 'sdb',
          size: '214748364800',
          type: 'disk',
          mountpoint: null,
          fstype: null,
          children: [
            {
              name: 'sdb1',
              size: '100000000000',
              type: 'part',
              mountpoint: null,
              fstype: 'LVM2_member',
              children: [{ name: 'vg_data-data', size: '6442450944', type: 'lvm', mountpoint: '/data', fstype: 'ext4' }],
            },
          ],
        },
      ],
    });
    expect(parseLsblk(old, new Map([['/dev/sdb1', 'vg_data']]))).toEqual([
      {
        path: '/dev/sdb',
        sizeBytes: 214748364800,
        partitions: [
          {
            path: '/dev/sdb1',
            sizeBytes: 100000000000,
            fstype: 'LVM2_member',
            volumeGroup: 'vg_data',
            children: [{ path: '/dev/mapper/vg_data-data', sizeBytes: 6442450944, mountpoint: '/data', fstype: 'ext4' }],
          },
        ],
      },
    ]);
  });
});

describe("this machine's real lsblk", () => {
  it('gives one node, the host, with the disks lsblk lists (at least one), with paths and sizes', async () => {
    const lsblk = requireTool('lsblk');
    const storage = await readLocalInventory();
    expect(storage.source).toBe('local');
    expect(storage.nodes).toHaveLength(1);
    const [node] = storage.nodes;
    expect(node!.node).toBe(os.hostname());
    expect(storage.missing.filter((l) => l.startsWith('lsblk'))).toEqual([]);
    const listed = parseLsblk(execFileSync(lsblk, LSBLK_ARGS, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }));
    expect(node!.disks.map((d) => d.path)).toEqual(listed.map((d) => d.path));
    expect(node!.disks.length, 'the machine running the tests has a disk that lsblk lists').toBeGreaterThan(0);
    for (const d of node!.disks) {
      expect(d.path).toMatch(/^\/dev\//);
      expect(d.sizeBytes).toBeGreaterThan(0);
      expect(Array.isArray(d.partitions)).toBe(true);
    }
    for (const line of storage.missing) expect(line).toMatch(/^(vgs|pvs) (not installed|failed)/);
    for (const vg of node!.volumeGroups) expect(vg.freeBytes).toBeLessThanOrEqual(vg.sizeBytes);
  });
});
