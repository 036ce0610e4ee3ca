/**
 * `fleetdeck fleet list` and `fleetdeck fleet use NAME`: the fleets the fleet file records, and
 * which one a command works on without --fleet. They read and write the fleet file only, never a
 * cluster. Exit codes: 0, 2 usage (an unknown fleet, a fleet file that does not parse).
 */
import { UserError } from '../errors.js';
import { fleetFilePath, readFleetsDoc, setCurrentFleet } from '../config/fleet-config.js';
import { DEFAULT_CONTROL_PLANE_CONTEXT, DEFAULT_NAMESPACE } from '../config/fleet-config.js';
import { selectedName } from '../config/fleets.js';
import { document } from '../output/format.js';
import { toAscii } from '../checklist/checklist.js';
import { formatTable } from '../report/status.js';
import { asciiOnly, type GlobalOptions, requireOutput } from '../session/options.js';

export interface FleetRow {
  name: string;
  /** The fleet commands work on without --fleet in this run (--fleet / FLEETDECK_FLEET, else the file's current one). */
  current: boolean;
  hostingContext: string | null;
  controlPlaneContext: string;
  namespace: string;
  workloads: string[];
  /** The control plane's kubeconfig the install wrote. */
  kubeconfig: string | null;
}

/** The recorded fleets as rows, in the file's order. */
export function fleetRows(file: string): FleetRow[] {
  const doc = readFleetsDoc(file);
  const selected = selectedName(doc);
  return Object.entries(doc.fleets).map(([name, f]) => ({
    name,
    current: name === selected,
    hostingContext: f.hostingContext ?? null,
    controlPlaneContext: f.controlPlaneContext ?? DEFAULT_CONTROL_PLANE_CONTEXT,
    namespace: f.namespace ?? DEFAULT_NAMESPACE,
    workloads: (f.workloads ?? []).map((w) => (typeof w === 'string' ? w : w.context)),
    kubeconfig: f.kubeconfig ?? null,
  }));
}

/** CURRENT NAME HOSTING CONTROL-PLANE NAMESPACE WORKLOADS, padded, the last column not. */
export function fleetTable(rows: readonly FleetRow[]): string[] {
  const table = [
    ['CURRENT', 'NAME', 'HOSTING', 'CONTROL-PLANE', 'NAMESPACE', 'WORKLOADS'],
    ...rows.map((r) => [
      r.current ? '*' : '',
      r.name,
      r.hostingContext ?? '-',
      r.controlPlaneContext,
      r.namespace,
      r.workloads.join(',') || '-',
    ]),
  ];
  return formatTable(table, '  ').split('\n');
}

const write = (line: string) => process.stdout.write(`${line}\n`);

export function runFleetList(opts: GlobalOptions): number {
  const output = requireOutput(opts.output);
  const file = fleetFilePath();
  const rows = fleetRows(file);
  if (output !== 'text') write(document(output, { file, fleets: rows }));
  else if (rows.length === 0) write(`No fleet recorded in ${file}: fleetdeck install records one.`);
  else for (const line of fleetTable(rows)) write(asciiOnly(opts) ? toAscii(line) : line);
  return 0;
}

export function runFleetUse(name: string): number {
  const file = fleetFilePath();
  const names = Object.keys(readFleetsDoc(file).fleets);
  if (!names.includes(name)) {
    throw new UserError(`no fleet "${name}" in ${file} (${names.length ? `it records ${names.join(', ')}` : 'it records no fleet'})`, 2);
  }
  setCurrentFleet(file, name);
  write(`Commands now work on the fleet ${name} (hosted in ${fleetRows(file).find((r) => r.name === name)?.hostingContext ?? '-'}).`);
  return 0;
}
