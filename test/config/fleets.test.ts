import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import {
  fleetFileMention,
  fleetFilesDir,
  forgetFleet,
  readFleetFile,
  readFleetsDoc,
  setCurrentFleet,
  writeFleetFile,
} from '../../src/config/fleet-config.js';
import { controlPlaneKubeconfigPath } from '../../src/install/plan.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-fleets-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

let n = 0;
const fresh = (text?: string) => {
  const p = path.join(dir, `f${++n}`, 'fleet.yaml');
  fs.mkdirSync(path.dirname(p), { recursive: true });
  if (text !== undefined) fs.writeFileSync(p, text);
  return p;
};
const fleet = (hosting: string, workloads: string[] = []) => ({
  hostingContext: hosting,
  controlPlaneContext: 'nova',
  namespace: 'elotl',
  workloads: workloads.map((w) => ({ context: w, clusterName: w })),
});
const useFleet = (name: string | undefined) => vi.stubEnv('FLEETDECK_FLEET', name ?? '');

describe('several fleets in one fleet file', () => {
  it('the one-fleet form is the fleet "default": read as before, --fleet default picks it, another name is refused naming it', () => {
    const p = fresh('hostingContext: kind-cp\nworkloads: [w1]\n');
    expect(readFleetFile(p)?.hostingContext).toBe('kind-cp');
    expect(Object.keys(readFleetsDoc(p).fleets)).toEqual(['default']);
    useFleet('default');
    expect(readFleetFile(p)?.hostingContext).toBe('kind-cp');
    useFleet('staging');
    expect(() => readFleetFile(p)).toThrow(/^no fleet "staging" in .*fleet\.yaml \(it records default\); fleetdeck fleet list shows them$/);
    useFleet('agents');
    expect(() => readFleetFile(p)).toThrow(/the logs of the fleet's agents: fleetdeck logs --agents/);
  });

  it('an install with --fleet NAME records a second fleet beside the first, which stays current; its files in a folder of its own', () => {
    const p = fresh();
    writeFleetFile(p, fleet('kind-cp', ['w1']));
    expect(parse(fs.readFileSync(p, 'utf8'))).toMatchObject({ hostingContext: 'kind-cp' });
    expect(controlPlaneKubeconfigPath(p, 'nova')).toBe(path.join(path.dirname(p), 'nova.kubeconfig'));
    useFleet('staging');
    expect(readFleetFile(p, true)).toBeUndefined();
    expect(controlPlaneKubeconfigPath(p, 'nova')).toBe(path.join(path.dirname(p), 'fleets', 'staging', 'nova.kubeconfig'));
    writeFleetFile(p, fleet('kind-staging', ['s1']), { kubeconfig: '/x/staging/nova.kubeconfig' });
    expect(fs.statSync(p).mode & 0o777).toBe(0o600);
    expect(parse(fs.readFileSync(p, 'utf8'))).toEqual({
      current: 'default',
      fleets: {
        default: { hostingContext: 'kind-cp', controlPlaneContext: 'nova', namespace: 'elotl', workloads: ['w1'] },
        staging: {
          hostingContext: 'kind-staging',
          controlPlaneContext: 'nova',
          namespace: 'elotl',
          workloads: ['s1'],
          kubeconfig: '/x/staging/nova.kubeconfig',
        },
      },
    });
    expect(readFleetFile(p)?.hostingContext).toBe('kind-staging');
    useFleet(undefined);
    expect(readFleetFile(p)?.hostingContext).toBe('kind-cp');
    expect(fleetFilesDir(p)).toBe(path.dirname(p));
    setCurrentFleet(p, 'staging');
    expect(readFleetFile(p)?.hostingContext).toBe('kind-staging');
  });

  it('an uninstall forgets its own fleet only; the last one takes the file with it', () => {
    const p = fresh('current: a\nfleets:\n  a: {hostingContext: ha}\n  b: {hostingContext: hb}\n  c: {hostingContext: hc}\n');
    useFleet('b');
    expect(fleetFileMention(p)).toBe(`${p} (fleet b)`);
    expect(forgetFleet(p)).toBe(`${p} (fleet b)`);
    useFleet(undefined);
    expect(readFleetsDoc(p)).toMatchObject({ current: 'a', fleets: { a: {}, c: {} } });
    expect(Object.keys(readFleetsDoc(p).fleets)).toEqual(['a', 'c']);
    forgetFleet(p);
    // The current one gone: the only one left is current.
    expect(readFleetsDoc(p).current).toBe('c');
    expect(readFleetFile(p)?.hostingContext).toBe('hc');
    expect(fleetFileMention(p)).toBe(p);
    expect(forgetFleet(p)).toBe(p);
    expect(fs.existsSync(p)).toBe(false);
  });

  it('several fleets and none current: said in one line with the way to choose', () => {
    const p = fresh('fleets:\n  a: {hostingContext: ha}\n  b: {hostingContext: hb}\n');
    expect(() => readFleetFile(p)).toThrow(
      /records the fleets a, b and no current one: choose with --fleet NAME, or fleetdeck fleet use NAME/,
    );
    useFleet('b');
    expect(readFleetFile(p)?.hostingContext).toBe('hb');
  });

  it('errors in the named form name the line, the fleet and the field', () => {
    expect(() => readFleetsDoc(fresh('fleets:\n  a:\n    hostingContext: ha\n    workload: [w]\n'))).toThrow(
      /line 4: unknown field "fleets\.a\.workload"/,
    );
    expect(() => readFleetsDoc(fresh('current: b\nfleets:\n  a: {hostingContext: ha}\n'))).toThrow(
      /line 1: "current" must name one of the fleets \(a\)/,
    );
    expect(() => readFleetsDoc(fresh('hostingContext: x\nfleets:\n  a: {hostingContext: ha}\n'))).toThrow(
      /line 1: unknown field "hostingContext" beside fleets/,
    );
    expect(() => readFleetsDoc(fresh('fleets:\n  "bad name": {hostingContext: ha}\n'))).toThrow(/line 2: .*"bad name" is not a fleet name/);
    expect(() => readFleetsDoc(fresh('fleets: [a]\n'))).toThrow(/line 1: "fleets" must be a mapping of fleet names/);
  });
});
