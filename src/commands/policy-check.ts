/**
 * `fleetdeck policy check FILE`: what a SchedulePolicy not yet applied would do on the fleet's
 * control plane (with the file's own namespaces and workloads as if applied too). Changes nothing. Exit codes: 0 it catches objects and each would be placed, 1 it
 * catches nothing, one would stay pending, or another policy would still be used for one, 2 usage
 * (the file unreadable, not YAML, not one named SchedulePolicy).
 */
import fs from 'node:fs';
import { UsageError } from '../errors.js';
import { document } from '../output/format.js';
import { checkPolicy, policyCheckText, policyFromText } from '../placement/policy-check.js';
import { withFileObjects } from '../placement/policy-file.js';
import { requireOutput, type GlobalOptions } from '../session/options.js';
import { openSession } from '../session/session.js';
import { readFleetPlacement } from './placement-read.js';

export async function runPolicyCheck(file: string, opts: Omit<GlobalOptions, 'output'> & { output?: string }): Promise<number> {
  const output = requireOutput(opts.output);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const candidate = policyFromText(text, file);
  const placed = await readFleetPlacement(openSession({ ...opts, output: undefined }), 'policy check');
  // The file's namespaces and workloads count as applied with it.
  const { read, fromFile } = withFileObjects(placed.read, text);
  const check = { ...checkPolicy(read, candidate), ...(fromFile.length ? { fromFile } : {}) };
  process.stdout.write(`${output === 'text' ? policyCheckText(check) : document(output, check)}\n`);
  const shadowed = check.catches.some((c) => c.usedPolicy !== check.policy);
  return check.catches.length === 0 || shadowed || check.units.some((u) => u.pending) ? 1 : 0;
}
