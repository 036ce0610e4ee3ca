/**
 * The backup `fleetdeck uninstall` makes first (unless --no-backup): the control plane's
 * objects written to `<config>/fleetdeck/backups/`, the path printed, before anything is deleted.
 */
import path from 'node:path';
import { defaultBackupName } from '../../backup/file.js';
import { fleetFilesDir } from '../../config/fleet-config.js';
import { UserError } from '../../errors.js';
import type { Session } from '../../session/session.js';
import { backupTo } from '../backup.js';
import { controlPlaneConfig } from '../backup/target.js';

export interface UninstallBackup {
  file: string;
  objects: number;
}

/** Where the uninstall's backup goes: beside the fleet file, in `backups/`. */
export function uninstallBackupPath(fleetFile: string, context: string, at = new Date()): string {
  return path.join(fleetFilesDir(fleetFile), 'backups', defaultBackupName(context, at));
}

/** The plan's line about the backup. */
export function backupPlanLine(file: string | undefined, dryRun: boolean): string {
  if (!file) return 'Backup: none (--no-backup): every SchedulePolicy, ScheduleGroup and object of the control plane is lost.';
  return `Backup: ${dryRun ? 'would write' : 'writes'} the control plane's objects to ${file} first (skip it with --no-backup).`;
}

/**
 * Writes the backup, or says why there is none: undefined when the control plane's context is
 * in no kubeconfig any more (an uninstall that already removed it). A control plane that does not
 * answer stops the uninstall before anything is deleted (one line, exit 1).
 */
export async function backupBeforeUninstall(
  session: Session,
  context: string,
  kubeconfigPath: string,
  file: string,
  say: (line: string) => void,
): Promise<UninstallBackup | undefined> {
  const kc = controlPlaneConfig(session, context, kubeconfigPath, session.userKubeconfig().config);
  if (!kc) {
    say(`No backup: the control plane's context ${context} is in no kubeconfig (nor in ${kubeconfigPath}): nothing left to read.`);
    return undefined;
  }
  try {
    const result = await backupTo(kc, context, file, false);
    say(`Backup of ${result.objects.length} objects of the control plane written to ${file} (restore: fleetdeck restore ${file}).`);
    return { file, objects: result.objects.length };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new UserError(`${why}; nothing was deleted (uninstall without a backup: --no-backup)`);
  }
}
