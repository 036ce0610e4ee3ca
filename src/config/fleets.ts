/**
 * Several fleets in one fleet file. The file holds either one fleet (its fields at the top: the
 * form every earlier version wrote, read as the fleet named `default`) or several, by name:
 *
 *   current: prod
 *   fleets:
 *     prod:    { hostingContext: …, workloads: […], identities: … }
 *     staging: { hostingContext: …, … }
 *
 * A run works on one of them: `--fleet NAME` (the flag sets FLEETDECK_FLEET for the whole run),
 * else the file's `current`, else its only fleet. An install with `--fleet NAME` records a new
 * fleet beside the others (the one-fleet form becomes `default`); an uninstall forgets its own.
 */
import path from 'node:path';
import { UserError } from '../errors.js';
import type { FleetFile } from './fleet-config.js';

/** The name of the fleet of the one-fleet form. */
export const DEFAULT_FLEET = 'default';
const NAME = /^[A-Za-z0-9][-A-Za-z0-9_.]*$/;

/** The file's fleets by name, and the one it makes current. */
export interface FleetsDoc {
  current?: string;
  fleets: Record<string, FleetFile>;
  /** Written in the one-fleet form (its only fleet is `default`). */
  single: boolean;
}

/** The fleet --fleet (FLEETDECK_FLEET) names for this run, if any. */
export function fleetFlag(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.FLEETDECK_FLEET || undefined;
}

/** --fleet NAME: checked, and the fleet of every later read of the fleet file in this run (and its children). */
export function selectFleetForRun(name: string): void {
  checkFleetName(name, '--fleet');
  process.env.FLEETDECK_FLEET = name;
}

/** Checks a fleet's name as --fleet or the file gives it. */
export function checkFleetName(name: string, where: string): void {
  if (!NAME.test(name)) throw new UserError(`${where}: "${name}" is not a fleet name (letters, digits, -, _ and .)`, 2);
}

/** The fleets of a file's parsed body (one fleet at the top, or `fleets:`). */
export function fleetsOf(body: FleetFile | { current?: string; fleets: Record<string, FleetFile> } | undefined): FleetsDoc {
  if (!body) return { fleets: {}, single: true };
  if ('fleets' in body) return { ...(body.current ? { current: body.current } : {}), fleets: { ...body.fleets }, single: false };
  return { fleets: Object.keys(body).length ? { [DEFAULT_FLEET]: body } : {}, single: true };
}

/** The body to write for `doc`: the one-fleet form while its only fleet is `default`. */
export function bodyOf(doc: FleetsDoc): FleetFile | { current?: string; fleets: Record<string, FleetFile> } {
  const names = Object.keys(doc.fleets);
  if (names.length === 1 && names[0] === DEFAULT_FLEET && (doc.current ?? DEFAULT_FLEET) === DEFAULT_FLEET) return doc.fleets.default!;
  return { ...(doc.current && doc.fleets[doc.current] ? { current: doc.current } : {}), fleets: doc.fleets };
}

/**
 * The name of the fleet this run works on: --fleet, else the file's `current`, else its only
 * fleet; undefined when the file records none (or several and no current: said by selectFleet).
 */
export function selectedName(doc: FleetsDoc, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const flag = fleetFlag(env);
  if (flag) return flag;
  if (doc.current) return doc.current;
  const names = Object.keys(doc.fleets);
  return names.length === 1 ? names[0] : undefined;
}

/**
 * The fleet this run works on, or undefined when the file records none. A --fleet the file does
 * not record is an error naming those it does (exit 2) — unless `creating` (an install records it).
 */
export function selectFleet(doc: FleetsDoc, file: string, creating = false, env: NodeJS.ProcessEnv = process.env): FleetFile | undefined {
  const names = Object.keys(doc.fleets);
  const name = selectedName(doc, env);
  if (name === undefined) {
    if (names.length === 0) return undefined;
    throw new UserError(
      `${file} records the fleets ${names.join(', ')} and no current one: choose with --fleet NAME, or fleetdeck fleet use NAME`,
      2,
    );
  }
  const fleet = doc.fleets[name];
  if (fleet || creating) return fleet;
  const known = names.length ? `it records ${names.join(', ')}` : 'it records no fleet';
  const logs = name === 'agents' || name === 'control-plane' ? `; the logs of the fleet's ${name}: fleetdeck logs --${name}` : '';
  throw new UserError(`no fleet "${name}" in ${file} (${known}); fleetdeck fleet list shows them${logs}`, 2);
}

/** Where the files of the fleet this run works on live: the fleet file's directory, a folder of its own for a named fleet. */
export function fleetDir(file: string, doc: FleetsDoc, env: NodeJS.ProcessEnv = process.env): string {
  const name = selectedName(doc, env);
  return !name || name === DEFAULT_FLEET ? path.dirname(file) : path.join(path.dirname(file), 'fleets', name);
}

/** `doc` with the fleet of this run set to `fleet` (an install): a new name is added, and made current when none is. */
export function withFleet(doc: FleetsDoc, fleet: FleetFile, env: NodeJS.ProcessEnv = process.env): FleetsDoc {
  const name = selectedName(doc, env) ?? DEFAULT_FLEET;
  const fleets = { ...doc.fleets, [name]: fleet };
  const current = doc.current ?? (doc.single && Object.keys(doc.fleets).length ? DEFAULT_FLEET : name);
  return { current, fleets, single: false };
}

/** `doc` without the fleet of this run (an uninstall); current moves to the only one left, if one is. */
export function withoutFleet(doc: FleetsDoc, env: NodeJS.ProcessEnv = process.env): FleetsDoc {
  const name = selectedName(doc, env);
  const fleets = Object.fromEntries(Object.entries(doc.fleets).filter(([n]) => n !== name));
  const left = Object.keys(fleets);
  const current = doc.current && doc.current !== name ? doc.current : left.length === 1 ? left[0] : undefined;
  return { ...(current ? { current } : {}), fleets, single: false };
}
