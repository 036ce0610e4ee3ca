import { describe, expect, it } from 'vitest';
import type { StatusJson } from '../../../src/report/status.js';
import { runCli } from '../../helpers/cli/cli.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const CONTEXTS = ['kind-cp', 'kind-workload-1', 'kind-workload-2'];

describe('the simulated nodes, as fleetdeck sees them', () => {
  it('(d) `fleetdeck status -o json` reports every sandbox context reachable with its nodes', async () => {
    const res = await runCli(['status', '-o', 'json', '--kubeconfig', kubeconfig]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const json = JSON.parse(res.stdout) as StatusJson;
    expect(json.contexts.map((c) => c.name)).toEqual(CONTEXTS);
    for (const c of json.contexts) {
      expect(c).toMatchObject({ reachable: true, version: 'v1.20.2', error: null });
      expect(c.latencyMs).toBeGreaterThanOrEqual(0);
      expect(c.nodes?.total).toBe(6);
      expect(c.nodes?.ready).toBe(6);
      expect(Object.keys(c.nodes!.byZone).sort()).toEqual(['zone-a', 'zone-b', 'zone-c']);
    }
  });

  it('text status uses the checklist wording', async () => {
    const res = await runCli(['status', '--kubeconfig', kubeconfig, '--context', 'kind-cp']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/\* Context kind-cp\.\.\. reachable, v1\.20\.2, \d+ ms, 6\/6 nodes Ready √/);
  });
});
