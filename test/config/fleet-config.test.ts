import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fleetContextNames,
  fleetFilePath,
  inClusterDefaults,
  readFleetFile,
  resolveFleet,
  writeFleetFile,
} from '../../src/config/fleet-config.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-fleet-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};

describe('fleet config', () => {
  it('lives in the XDG config directory', () => {
    expect(fleetFilePath({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/fleetdeck/fleet.yaml');
    expect(fleetFilePath({ HOME: '/h' })).toBe('/h/.config/fleetdeck/fleet.yaml');
  });

  it('no hosting context, no fleet; defaults nova / elotl; flags win over the file', () => {
    expect(resolveFleet(undefined, {})).toBeUndefined();
    expect(resolveFleet(undefined, { hostingContext: 'kind-cp' })).toEqual({
      hostingContext: 'kind-cp',
      controlPlaneContext: 'nova',
      namespace: 'elotl',
      workloads: [],
    });
    const fromFile = { hostingContext: 'a', namespace: 'ns', workloads: ['w1', { context: 'w2', clusterName: 'east' }] };
    expect(resolveFleet(fromFile, {})?.workloads).toEqual([
      { context: 'w1', clusterName: 'w1' },
      { context: 'w2', clusterName: 'east' },
    ]);
    const both = resolveFleet(fromFile, { hostingContext: 'b', namespace: 'other', context: ['w3'] })!;
    expect(both).toEqual({
      hostingContext: 'b',
      controlPlaneContext: 'nova',
      namespace: 'other',
      workloads: [{ context: 'w3', clusterName: 'w3' }],
    });
    expect(fleetContextNames({ ...both, controlPlaneContext: 'b' })).toEqual(['b', 'w3']);
  });

  it('round-trips through the file it writes (0600)', () => {
    const p = path.join(dir, 'sub', 'fleet.yaml');
    writeFleetFile(p, {
      hostingContext: 'kind-cp',
      controlPlaneContext: 'nova',
      namespace: 'elotl',
      workloads: [
        { context: 'kind-workload-1', clusterName: 'kind-workload-1' },
        { context: 'w2', clusterName: 'east' },
      ],
    });
    expect(fs.statSync(p).mode & 0o777).toBe(0o600);
    expect(resolveFleet(readFleetFile(p), {})).toEqual({
      hostingContext: 'kind-cp',
      controlPlaneContext: 'nova',
      namespace: 'elotl',
      workloads: [
        { context: 'kind-workload-1', clusterName: 'kind-workload-1' },
        { context: 'w2', clusterName: 'east' },
      ],
    });
    expect(readFleetFile(path.join(dir, 'missing.yaml'))).toBeUndefined();
  });

  it("records the control plane's kubeconfig written by the install", () => {
    const p = path.join(dir, 'with-kc', 'fleet.yaml');
    writeFleetFile(
      p,
      { hostingContext: 'kind-cp', controlPlaneContext: 'nova', namespace: 'elotl', workloads: [] },
      { kubeconfig: '/x/nova.kubeconfig' },
    );
    expect(readFleetFile(p)?.kubeconfig).toBe('/x/nova.kubeconfig');
    fs.writeFileSync(p, 'hostingContext: a\nkubeconfig: ""\n');
    expect(() => readFleetFile(p)).toThrow(/line 2: "kubeconfig" must be a non-empty string/);
  });

  it('errors name the file and the line', () => {
    expect(() => readFleetFile(file('bad.yaml', 'hostingContext: a\nnamespace: [unclosed\n'))).toThrow(
      /bad\.yaml line \d+: not valid YAML/,
    );
    expect(() => readFleetFile(file('unknown.yaml', 'hostingContext: a\nworkload: [b]\n'))).toThrow(
      /unknown\.yaml line 2: unknown field "workload"/,
    );
    expect(() => readFleetFile(file('ns.yaml', 'hostingContext: a\nnamespace: Not_Valid\n'))).toThrow(
      /ns\.yaml line 2: "Not_Valid" is not a valid namespace name/,
    );
    expect(() => readFleetFile(file('list.yaml', '- a\n'))).toThrow(/list\.yaml line 1: expected a mapping/);
  });

  it('inClusterRollouts names the contexts whose rollouts run in the cluster, with their image; an install keeps it', () => {
    const f = file(
      'in-cluster.yaml',
      'hostingContext: a\ninClusterRollouts:\n  contexts: [w1]\n  image: reg.example/fleetdeck:v1\n  namespace: ops\n',
    );
    expect(inClusterDefaults('w1', f)).toEqual({ inCluster: true, image: 'reg.example/fleetdeck:v1', namespace: 'ops' });
    expect(inClusterDefaults('w2', f)).toEqual({ inCluster: false });
    writeFleetFile(f, { hostingContext: 'b', controlPlaneContext: 'nova', namespace: 'elotl', workloads: [] });
    expect(readFleetFile(f)).toMatchObject({
      hostingContext: 'b',
      inClusterRollouts: { contexts: ['w1'], image: 'reg.example/fleetdeck:v1' },
    });
    expect(() => readFleetFile(file('bad-ic.yaml', 'inClusterRollouts:\n  contexts: w1\n'))).toThrow(
      /bad-ic\.yaml line 1: "inClusterRollouts.contexts" must be a list of context names/,
    );
    expect(() => readFleetFile(file('bad-ic2.yaml', 'inClusterRollouts:\n  contexts: [w1]\n  imag: x\n'))).toThrow(
      /unknown field "inClusterRollouts.imag"/,
    );
  });
});
