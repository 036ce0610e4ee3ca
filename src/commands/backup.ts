/**
 * `fleetdeck backup`: every object an operator created in the control plane, read through its
 * own API, into one YAML file (0600): the Day 2 page's rows as lines, then a summary per kind. Reads only.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { type BackupResult, runBackup } from '../backup/backup.js';
import { backupText as fileText, defaultBackupName, writeBackupFile } from '../backup/file.js';
import { recordLastBackup } from '../backup/last.js';
import { UsageError, UserError } from '../errors.js';
import { describeError } from '../kube/transport/client.js';
import { document } from '../output/format.js';
import { backupJson, backupText } from '../report/backup.js';
import { asciiOnly, type GlobalOptions, requireOutput } from '../session/options.js';
import { StepRunner } from '../install/runner.js';
import { backupInSteps } from '../backup/backup-steps.js';
import { startSession } from '../session/session.js';
import { lineReporter } from './install/lines.js';
import { controlPlaneTarget } from './backup/target.js';

export interface BackupOptions extends GlobalOptions {
  file?: string;
  includeSecrets?: boolean;
}

const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** Reads the control plane and writes the file; a server that does not answer is one line, exit 1. */
export async function backupTo(kc: KubeConfig, context: string, file: string, includeSecrets: boolean): Promise<BackupResult> {
  let result: BackupResult;
  try {
    result = await runBackup(kc, { includeSecrets });
  } catch (err) {
    throw new UserError(`cannot read the control plane (context ${context}): ${describeError(err)}`);
  }
  const at = new Date();
  writeBackupFile(file, fileText(result.objects, { context, at, includeSecrets }));
  recordLastBackup({ file, at: at.toISOString(), context });
  return result;
}

/** The backup as the Day 2 page's rows (discover, read, write), one line per change, then the summary per kind. */
async function backupInRows(kc: KubeConfig, context: string, file: string, includeSecrets: boolean, ascii: boolean): Promise<BackupResult> {
  const runner = new StepRunner(lineReporter(ascii));
  try {
    return await backupInSteps(kc, context, file, { includeSecrets }, runner);
  } catch (err) {
    const failed = runner.items().find((i) => i.state === 'fail');
    throw new UserError(`cannot read the control plane (context ${context}): ${failed?.detail ?? describeError(err)}`);
  } finally {
    runner.stop();
  }
}

/** Where the file goes: -f FILE (its folder must exist), else a name with the time in the current folder. */
function targetFile(opts: BackupOptions, context: string): string {
  if (opts.file === undefined) return path.resolve(defaultBackupName(context, new Date()));
  const file = path.resolve(opts.file);
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new UsageError(`-f ${opts.file} is a directory; give a file name`);
  if (!fs.existsSync(path.dirname(file))) throw new UsageError(`-f ${opts.file}: folder ${path.dirname(file)} does not exist`);
  return file;
}

/** Exit 0 when the file is written; 1 when the control plane could not be read; 2 usage. */
export async function runBackupCommand(opts: BackupOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const { context, kc } = controlPlaneTarget(startSession(opts, { needs: 'control-plane' }), 'backup');
  const file = targetFile(opts, context);
  const includeSecrets = opts.includeSecrets === true;
  const result =
    output === 'text'
      ? await backupInRows(kc, context, file, includeSecrets, asciiOnly(opts))
      : await backupTo(kc, context, file, includeSecrets);
  const report = { file, context, result, includeSecrets };
  write(output === 'text' ? backupText(report) : document(output, backupJson(report)));
  return 0;
}
