/**
 * How the user started fleetdeck: as `fleetdeck` (the `fleetdeck` bin, dist/cli.js) or as
 * `kubectl fleetdeck` (the `kubectl-fleetdeck` bin, dist/kubectl-fleetdeck.js, which kubectl runs
 * as a plugin). Set once by the entry point before anything else loads; usage lines and the
 * handling of kubectl's global flags follow it.
 */
export type CommandName = 'fleetdeck' | 'kubectl fleetdeck';

let name: CommandName = 'fleetdeck';

export function startedAsKubectlPlugin(): void {
  name = 'kubectl fleetdeck';
}

/** The command as the user typed it, for usage lines and hints. */
export function commandName(): CommandName {
  return name;
}

export function isKubectlPlugin(): boolean {
  return name === 'kubectl fleetdeck';
}
