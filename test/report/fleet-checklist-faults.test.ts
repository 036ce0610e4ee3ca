import { describe, expect, it } from 'vitest';
import { fleetHealthy } from '../../src/report/status.js';
import { DAY, NOW, agentNamespace, healthy, item, text, withContext, withControlPlane, withHosting } from './fleet-checklist-fixture.js';

describe('fleet checklist', () => {
  it('etcd Pending: the failure names the scheduler message, the hint the storage provisioner', () => {
    // Given etcd pods that cannot be scheduled for want of a PersistentVolume
    const message = '0/6 nodes are available: 6 pod has unbound immediate PersistentVolumeClaims.';
    const state = withHosting(healthy(), (ns) => ({
      ...ns,
      workloads: ns.workloads.map((w) => (w.name === 'etcd' ? { ...w, ready: 0 } : w)),
      pods: ns.pods.map((p) =>
        p.labels.app === 'etcd' ? { ...p, phase: 'Pending', ready: false, reason: `Unschedulable: ${message}`, node: undefined } : p,
      ),
    }));

    // When printed
    const lines = text(state).split('\n');

    // Then
    const at = lines.findIndex((l) => l.startsWith('* ETCD status'));
    expect(lines[at]).toBe(`* ETCD status... Pending 0/3 (Unschedulable: ${message}) ✗`);
    expect(lines[at + 1]).toMatch(/^ {2}ETCD pods will not start if the storage provisioner is not configured/);
    expect(lines[at + 1]).toContain('storage provisioner and a default StorageClass');
    expect(lines).toContain('Nova Control Plane is not healthy ✗');
    expect(fleetHealthy(state, NOW)).toBe(false);
  });

  it('API server pods crashing: the failure says CrashLoopBackOff and the hint shows the logs', () => {
    const state = withHosting(healthy(), (ns) => ({
      ...ns,
      pods: ns.pods.map((p) => (p.labels.component === 'apiserver' ? { ...p, ready: false, reason: 'CrashLoopBackOff' } : p)),
    }));
    const api = item(state, 'nova/apiserver');
    expect(api).toMatchObject({ state: 'fail', detail: 'Running 0/3 (CrashLoopBackOff)' });
    expect(api.hint).toBe('see why it exits: kubectl --context=kind-cp -n elotl logs apiserver-0 --previous');
  });

  it('one replica of three down is degraded, not failed', () => {
    const state = withHosting(healthy(), (ns) => ({
      ...ns,
      pods: ns.pods.map((p) =>
        p.name === 'nova-scheduler-2'
          ? {
              ...p,
              phase: 'Pending',
              ready: false,
              reason: "Unschedulable: 0/6 nodes are available: 6 node(s) didn't match pod anti-affinity rules.",
            }
          : p,
      ),
    }));
    expect(item(state, 'nova/nova-scheduler')).toMatchObject({
      state: 'warn',
      detail: expect.stringMatching(/^Running 2\/3 \(Unschedulable: /),
    });
    expect(item(state, 'nova/nova-scheduler').hint).toContain('topology.kubernetes.io/zone');
    expect(item(state, 'nova/healthy')).toMatchObject({ label: 'Nova Control Plane is degraded', state: 'warn' });
  });

  it('a component that is not there at all fails with the install command', () => {
    const state = withHosting(healthy(), (ns) => ({
      ...ns,
      workloads: ns.workloads.filter((w) => w.name !== 'nova-scheduler'),
      pods: ns.pods.filter((p) => p.labels.component !== 'nova-scheduler'),
    }));
    expect(item(state, 'nova/nova-scheduler')).toMatchObject({ state: 'fail', detail: 'not found' });
    expect(item(state, 'nova/nova-scheduler').hint).toContain('component=nova-scheduler');
  });

  it('LoadBalancer IP Pending: a warning with the ingress controller / load balancer hint', () => {
    const state = withHosting(healthy(), (ns) => ({ ...ns, services: [{ name: 'apiserver', type: 'LoadBalancer', ingress: [] }] }));
    const lines = text(state).split('\n');
    const at = lines.findIndex((l) => l.startsWith('* API Server Service'));
    expect(lines[at]).toBe('* API Server Service... Pending (no external IP or hostname) ‼');
    expect(lines[at + 1]).toMatch(
      /still Pending after a few minutes, check whether kind-cp has a working ingress controller \/ load balancer/,
    );
    // A hostname serves as well as an IP
    const named = withHosting(healthy(), (ns) => ({
      ...ns,
      services: [{ name: 'apiserver', type: 'LoadBalancer', ingress: ['nova.example.com'] }],
    }));
    expect(text(named)).toContain('* API Server Service... nova.example.com √');
  });

  it('certificates: ‼ within 30 days naming the secret and key, ✗ once expired, ‼ when none are found', () => {
    // Given one certificate expiring in 10 days
    const soon = withHosting(healthy(), (ns) => ({
      ...ns,
      certs: [...ns.certs, { secret: 'etcd-certs', key: 'peer.crt', subject: 'CN=etcd-peer', notAfter: NOW + 10 * DAY + 60_000 }],
    }));
    expect(text(soon)).toContain('* Control plane certificates... etcd-certs/peer.crt (CN=etcd-peer) expires in 10 days (2026-06-11) ‼');
    expect(item(soon, 'nova/certificates').hint).toMatch(/^renew them: fleetdeck certs renew/);
    // --warn-days 5: ten days left is fine; --warn-days 60: the 3649 days are not flagged, the ten are
    const warn5 = { ...soon, certs: { ...soon.certs, warnDays: 5 } };
    expect(item(warn5, 'nova/certificates')).toMatchObject({ state: 'ok', detail: 'valid for 10 days' });
    expect(item({ ...soon, certs: { ...soon.certs, warnDays: 60 } }, 'nova/certificates').state).toBe('warn');

    // Given two expired ones
    const expired = withHosting(healthy(), (ns) => ({
      ...ns,
      certs: [
        ...ns.certs,
        { secret: 'etcd-certs', key: 'peer.crt', subject: 'CN=etcd-peer', notAfter: NOW - 2 * DAY },
        { secret: 'etcd-certs', key: 'server.crt', subject: 'CN=etcd', notAfter: NOW - DAY },
      ],
    }));
    expect(text(expired)).toContain(
      '* Control plane certificates... etcd-certs/peer.crt (CN=etcd-peer) expired on 2026-05-30 (+1 more expired) ✗',
    );
    expect(fleetHealthy(expired, NOW)).toBe(false);

    // Given none
    const none = withHosting(healthy(), (ns) => ({ ...ns, certs: [] }));
    expect(item(none, 'nova/certificates')).toMatchObject({ state: 'warn', detail: 'none found' });

    // Given Secrets that cannot be read
    const forbidden = withHosting(healthy(), (ns) => ({
      ...ns,
      certs: [],
      secretsForbidden: 'cannot list secrets in namespace elotl: HTTP 403: forbidden (needs list and watch on secrets)',
    }));
    expect(item(forbidden, 'nova/certificates')).toMatchObject({
      state: 'warn',
      unknown: true,
      detail: expect.stringMatching(/^cannot check: cannot list secrets/),
    });
    // A check that could not be made leaves the fleet not known healthy: status exits 1.
    expect(fleetHealthy(healthy(), NOW)).toBe(true);
    expect(fleetHealthy(forbidden, NOW)).toBe(false);
    // An ordinary warning does not.
    expect(fleetHealthy(none, NOW)).toBe(true);
  });

  it('a missing CRD fails with the create command for the control plane context', () => {
    const state = withControlPlane(healthy(), (cp) => ({ ...cp, crds: { ...cp.crds, scheduleGroup: false } }));
    const lines = text(state).split('\n');
    expect(lines).toContain('* ScheduleGroup CRD presence... not installed ✗');
    expect(lines).toContain(
      '  install them: kubectl --context=nova create -f install/base/control-plane/nova_crds.yaml (or fleetdeck install)',
    );
    expect(lines).toContain('Not all Nova Custom Resource Definitions are installed ✗');
  });

  it('no Cluster CRD: no Cluster lines, and the agents cannot be registered', () => {
    const state = withControlPlane(healthy(), (cp) => ({ ...cp, crds: { ...cp.crds, cluster: false }, clusters: [] }));
    const lines = text(state).split('\n');
    expect(lines).toContain('* Cluster CRD presence... not installed ✗');
    expect(lines.some((l) => l.includes('workload clusters connected'))).toBe(false);
    expect(item(state, 'agent/kind-workload-1')).toMatchObject({ state: 'fail', detail: '1/1 ready, not registered (no Cluster CRD)' });
  });

  it('a Cluster that is not Ready shows its conditions', () => {
    const state = withControlPlane(healthy(), (cp) => ({
      ...cp,
      clusters: cp.clusters.map((c) => (c.name === 'kind-workload-2' ? { ...c, ready: 'False', idle: undefined } : c)),
    }));
    const lines = text(state).split('\n');
    expect(lines).toContain('* Cluster kind-workload-2... connected, not ready (Ready=False, Idle=unknown, Standby=False) ✗');
    expect(lines).toContain("  look at the agent's log: kubectl logs --context=kind-workload-2 -n elotl deployment/nova-agent");
    expect(item(state, 'agent/kind-workload-2')).toMatchObject({ state: 'fail', detail: '1/1 ready, registered, Ready=False' });
  });

  it('workload agent missing, or not ready', () => {
    // Given no agent Deployment in kind-workload-2
    const missing = withContext(healthy(), 'kind-workload-2', (c) => ({
      ...c,
      fleetNamespace: { ...agentNamespace(), workloads: [], pods: [] },
    }));
    const agent = item(missing, 'agent/kind-workload-2');
    expect(agent).toMatchObject({ state: 'fail', detail: 'no nova-agent Deployment in elotl, registered, Ready' });
    expect(agent.hint).toContain('novactl install agent kind-workload-2');

    // Given no namespace at all
    const noNs = withContext(healthy(), 'kind-workload-2', (c) => ({
      ...c,
      fleetNamespace: { ...agentNamespace(), exists: false, workloads: [], pods: [] },
    }));
    expect(item(noNs, 'agent/kind-workload-2')).toMatchObject({
      state: 'fail',
      detail: 'no agent (namespace elotl not found), registered, Ready',
    });

    // Given an agent that crashes
    const crashing = withContext(healthy(), 'kind-workload-1', (c) => ({ ...c, fleetNamespace: agentNamespace(0) }));
    const a = item(crashing, 'agent/kind-workload-1');
    expect(a).toMatchObject({ state: 'fail', detail: '0/1 ready (CrashLoopBackOff), registered, Ready' });
    expect(a.hint).toBe('see why it exits: kubectl --context=kind-workload-1 -n elotl logs nova-agent-7d9f-abcde --previous');
  });

  it('version skew between workload clusters is a warning listing them', () => {
    const state = withContext(healthy(), 'kind-workload-2', (c) => ({ ...c, version: 'v1.25.3' }));
    const v = item(state, 'workloads/versions');
    expect(v).toMatchObject({ state: 'warn', detail: 'v1.20 (kind-workload-1), v1.25 (kind-workload-2)' });
    expect(v.hint).toContain('same Kubernetes minor version');
    expect(fleetHealthy(state, NOW)).toBe(true);
  });
});
