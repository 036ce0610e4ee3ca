/**
 * A rollout's Lease on a sandbox cluster: created owned by the record ConfigMap, refused to a
 * second holder while renewed, taken over when forced (a transition), lost by the first holder
 * (it sees the other one), given back.
 */
import { CoordinationV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { acquireRolloutLease, keepLease, type LeaseLost, readRolloutLease, releaseRolloutLease } from '../../src/rollout/ownership.js';
import { initialState, resolvePlan } from '../../src/rollout/plan.js';
import { createRollout } from '../../src/rollout/state.js';
import { configMapName, ROLLOUT_NAMESPACE } from '../../src/rollout/types.js';
import { eventually } from '../helpers/cli/cli.js';
import { node, spec } from '../helpers/objects/rollout.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const CONTEXT = 'kind-workload-1';
const name = `t-lease-${Math.random().toString(36).slice(2, 7)}`;
let kc: KubeConfig;

beforeAll(() => {
  kc = configForContext(loadKubeconfig({ kubeconfig: sandbox().kubeconfig }).config, CONTEXT);
});

afterAll(async () => {
  await makeClient(kc, CoreV1Api)
    .deleteNamespacedConfigMap({ namespace: ROLLOUT_NAMESPACE, name: configMapName(name) })
    .catch(() => {});
});

describe('the rollout Lease', () => {
  it('one holder at a time: refused while renewed, forced takeover counts a transition, the old holder sees it; released', async () => {
    const s = spec({ name, context: CONTEXT, nodeNames: [{ name: 'not-touched', priority: 0 }] });
    const created = await createRollout(kc, initialState(s, resolvePlan([node('not-touched')], s)));
    const first = await acquireRolloutLease(kc, name, created.uid, 'bastion-1/4242', false, CONTEXT);
    expect(first.lease).toMatchObject({
      holderIdentity: 'bastion-1/4242',
      leaseDurationSeconds: 30,
      leaseTransitions: 0,
      labels: { 'app.kubernetes.io/managed-by': 'fleetdeck', 'fleetdeck.io/rollout': name },
    });
    const raw = await makeClient(kc, CoordinationV1Api).readNamespacedLease({ namespace: ROLLOUT_NAMESPACE, name: configMapName(name) });
    expect(raw.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ConfigMap', name: configMapName(name), uid: created.uid });

    const lost: LeaseLost[] = [];
    const kept = keepLease(kc, name, first.lease, 'bastion-1/4242', 200, (e) => lost.push(e));
    try {
      // Renewed while kept.
      await eventually('the Lease is renewed', async () => (await readRolloutLease(kc, name))?.renewTime !== first.lease.renewTime, 10_000);
      const refused = await acquireRolloutLease(kc, name, created.uid, 'pod/fleetdeck-runner-x-abcde', false, CONTEXT).catch(
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(UserError);
      expect((refused as Error).message).toMatch(
        new RegExp(
          `^rollout ${name} is being run by bastion-1/4242 \\(lease renewed \\d+ s ago\\); watch it with fleetdeck rollout watch ${name} --context ${CONTEXT}, or take over with --force-takeover$`,
        ),
      );
      const forced = await acquireRolloutLease(kc, name, created.uid, 'pod/fleetdeck-runner-x-abcde', true, CONTEXT);
      expect(forced.lease).toMatchObject({ holderIdentity: 'pod/fleetdeck-runner-x-abcde', leaseTransitions: 1 });
      expect(forced.previous?.holder).toBe('bastion-1/4242');
      const seen = await eventually('the first holder sees the takeover', () => lost[0], 10_000);
      expect(seen.holder).toBe('pod/fleetdeck-runner-x-abcde');
    } finally {
      await kept.stop();
    }
    // The first holder cannot give back what it lost; the new one can.
    await releaseRolloutLease(kc, name, 'bastion-1/4242');
    expect((await readRolloutLease(kc, name))?.holderIdentity).toBe('pod/fleetdeck-runner-x-abcde');
    await releaseRolloutLease(kc, name, 'pod/fleetdeck-runner-x-abcde', created.uid);
    const free = await readRolloutLease(kc, name);
    expect(free?.holderIdentity).toBeUndefined();
    expect(free?.leaseTransitions).toBe(1);
    // Free: anyone takes it, no refusal.
    const again = await acquireRolloutLease(kc, name, created.uid, 'bastion-2/7', false, CONTEXT);
    expect(again.lease).toMatchObject({ holderIdentity: 'bastion-2/7' });
  });
});
