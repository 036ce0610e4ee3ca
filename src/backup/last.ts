/**
 * The last backup made from this machine (by `fleetdeck backup` or the dashboard's Day 2 page):
 * its file, when, and of which control plane, kept with the fleet's files
 * (`<config>/fleetdeck/last-backup.json`, `…/fleets/NAME/last-backup.json` for a named fleet). The Day 2 page shows it and offers it to restore.
 * Only a record: a missing or unreadable record is no backup known.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fleetFilePath, fleetFilesDir } from '../config/fleet-config.js';

export interface LastBackup {
  file: string;
  /** ISO time the backup was written. */
  at: string;
  context: string;
}

export function lastBackupPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(fleetFilesDir(fleetFilePath(env)), 'last-backup.json');
}

/** Records a backup just written; a record that cannot be written is left out (the backup itself is fine). */
export function recordLastBackup(last: LastBackup, file = lastBackupPath()): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${JSON.stringify(last)}\n`, { mode: 0o600 });
  } catch {
    // Best effort: the record only feeds a hint.
  }
}

/** The record, when there is one and it names a file. */
export function readLastBackup(file = lastBackupPath()): LastBackup | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LastBackup>;
    if (typeof v.file === 'string' && typeof v.at === 'string' && typeof v.context === 'string')
      return { file: v.file, at: v.at, context: v.context };
  } catch {
    // No record, or not ours.
  }
  return undefined;
}
