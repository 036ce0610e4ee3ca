import { describe, expect, it } from 'vitest';
import { fleetFilePath } from '../../src/config/fleet-config.js';
import { fleetChecklist } from '../../src/report/fleet-checklist.js';
import { fleetHealthy } from '../../src/report/status.js';
import type { FleetState } from '../../src/store/fleet-store.js';
import { NOW, healthy, item, noOk, withContext, withControlPlane, withHosting } from './fleet-checklist-fixture.js';

describe('fleet checklist', () => {
  it('an unreachable hosting context gives no √ for what it hosts, and says since when', () => {
    // Given the hosting context went away (its last summary is still in the store)
    const state = withContext(healthy(), 'kind-cp', (c) => ({
      ...c,
      reachability: 'unreachable',
      lastError: 'connection refused',
      unreachableSince: NOW - 60_000,
    }));

    // When checked
    const items = fleetChecklist(state, NOW);

    // Then nothing it hosts is ok, each says why
    const hosted = items.filter(
      (i) => i.id.startsWith('nova/') && i.state !== 'info' && !i.id.startsWith('nova/cluster') && i.id !== 'nova/schedulepolicies',
    );
    expect(hosted.map((i) => i.id)).toEqual([
      'nova/apiserver',
      'nova/controller-manager',
      'nova/etcd',
      'nova/nova-scheduler',
      'nova/healthy',
      'nova/apiserver-service',
      'nova/certificates',
    ]);
    expect(hosted.every((i) => i.state === 'fail')).toBe(true);
    expect(item(state, 'nova/apiserver').detail).toMatch(/^unknown: kind-cp unreachable since \d\d:\d\d:\d\d \(connection refused\)$/);
    expect(item(state, 'nova/apiserver').hint).toContain('kubectl --context=kind-cp get --raw /readyz');
    expect(item(state, 'nova/healthy')).toMatchObject({ label: 'Nova Control Plane health is unknown', state: 'fail' });
    expect(fleetHealthy(state, NOW)).toBe(false);
  });

  it('an unreachable control plane: CRDs unknown, agents not √ (registration unknown)', () => {
    const state = withContext(healthy(), 'nova', (c) => ({
      ...c,
      reachability: 'unreachable',
      lastError: 'timed out',
      unreachableSince: NOW,
    }));
    const items = fleetChecklist(state, NOW);
    expect(noOk(items, 'crd/')).toBe(true);
    expect(noOk(items, 'agent/')).toBe(true);
    expect(items.some((i) => i.id.startsWith('nova/cluster/'))).toBe(false);
    expect(item(state, 'agent/kind-workload-1')).toMatchObject({
      state: 'warn',
      detail: expect.stringMatching(/^1\/1 ready, registration unknown \(nova unreachable since/),
    });
  });

  it('a control plane context missing from the kubeconfig: the install writes it', () => {
    const base = healthy();
    const { nova: _gone, ...contexts } = base.status.contexts;
    const state: FleetState = { ...base, status: { ...base.status, contexts, order: base.status.order.filter((n) => n !== 'nova') } };
    const cluster = item(state, 'crd/cluster');
    expect(cluster).toMatchObject({ state: 'fail', detail: 'unknown: context nova is not in the kubeconfig' });
    expect(cluster.hint).toContain('kubectl nova --context=kind-cp get kubeconfig -n elotl');
    expect(fleetHealthy(state, NOW)).toBe(false);
  });

  it('contexts still connecting or loading are pending, never √', () => {
    const connecting = withContext(healthy(), 'kind-cp', (c) => ({ ...c, reachability: 'unknown', fleetNamespace: undefined }));
    expect(item(connecting, 'nova/apiserver')).toMatchObject({ state: 'pending', detail: 'connecting to kind-cp…' });
    expect(item(connecting, 'nova/healthy').state).toBe('pending');

    const loading = withContext(healthy(), 'nova', (c) => ({ ...c, controlPlane: { ...c.controlPlane!, synced: false } }));
    expect(item(loading, 'crd/cluster')).toMatchObject({ state: 'pending', detail: 'loading…' });
    expect(noOk(fleetChecklist(loading, NOW), 'crd/')).toBe(true);
    expect(fleetHealthy(loading, NOW)).toBe(false);
  });

  it('forbidden lists: "cannot check" with the message, no √', () => {
    const message = 'cannot list pods in namespace elotl: HTTP 403: pods is forbidden (needs list and watch on pods)';
    const state = withHosting(healthy(), (ns) => ({ ...ns, pods: [], forbidden: message }));
    const api = item(state, 'nova/apiserver');
    expect(api).toMatchObject({ state: 'warn', detail: `cannot check: ${message}` });
    expect(item(state, 'nova/healthy')).toMatchObject({ state: 'warn', label: 'Nova Control Plane health cannot be checked' });
    // Services were listed: that row still answers
    expect(item(state, 'nova/apiserver-service').state).toBe('ok');

    const crds = withControlPlane(healthy(), (cp) => ({
      ...cp,
      forbidden: 'cannot list customresourcedefinitions: HTTP 403: forbidden (needs list and watch on customresourcedefinitions)',
      crds: { cluster: true, schedulePolicy: false, scheduleGroup: false },
    }));
    // The Clusters could be listed, so their CRD is evidently there; ScheduleGroups cannot be told
    expect(item(crds, 'crd/cluster')).toMatchObject({ state: 'ok', detail: 'installed' });
    expect(item(crds, 'crd/scheduleGroup')).toMatchObject({
      state: 'warn',
      detail: expect.stringMatching(/^cannot check: cannot list customresourcedefinitions/),
    });
  });

  it('the hosting namespace does not exist: not installed', () => {
    const state = withHosting(healthy(), (ns) => ({ ...ns, exists: false, workloads: [], pods: [], services: [], certs: [] }));
    expect(item(state, 'nova/apiserver')).toMatchObject({ state: 'fail', detail: 'not installed (namespace elotl not found in kind-cp)' });
    expect(item(state, 'nova/healthy')).toMatchObject({ label: 'Nova Control Plane is not installed', state: 'fail' });
  });

  it('without a fleet: one warning saying how to define one', () => {
    const { fleet: _none, ...state } = healthy();
    const items = fleetChecklist(state, NOW);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ state: 'warn', label: 'No fleet defined' });
    for (const flag of ['fleetdeck install', '--hosting-context', '--control-plane-context', '--namespace', '--context', fleetFilePath()]) {
      expect(items[0]!.hint).toContain(flag);
    }
  });

  it('a hosting context that is another cluster than the fleet file recorded: one row naming both and the fix, nothing checked', () => {
    const base = healthy();
    const problem = { detail: 'context kind-cp is another cluster than the fleet file recorded: …', hint: 'point KUBECONFIG at …' };
    const state: FleetState = { ...base, fleet: { ...base.fleet!, problems: { 'kind-cp': problem } } };
    const items = fleetChecklist(state, NOW);
    expect(items).toEqual([
      {
        id: 'fleet/elsewhere',
        label: 'The fleet hosted in kind-cp',
        state: 'fail',
        detail: `not checked: ${problem.detail}`,
        hint: problem.hint,
        unknown: true,
      },
    ]);
    expect(fleetHealthy(state, NOW)).toBe(false);
  });

  it('a workload context that is another cluster: its agent row says so, the others are checked', () => {
    const base = healthy();
    const problem = { detail: 'context kind-workload-2 is another cluster than the fleet file recorded: …', hint: 'point KUBECONFIG at …' };
    const state: FleetState = { ...base, fleet: { ...base.fleet!, problems: { 'kind-workload-2': problem } } };
    // (What the control plane says of its Cluster follows: that is read from the control plane.)
    expect(item(state, 'agent/kind-workload-2')).toMatchObject({
      state: 'fail',
      detail: expect.stringMatching(/^not checked: context kind-workload-2 is another cluster than the fleet file recorded: …(, |$)/),
      hint: problem.hint,
    });
    expect(item(state, 'agent/kind-workload-1').state).toBe('ok');
  });
});
