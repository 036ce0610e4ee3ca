import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { FAULT_ANNOTATION } from '../../../src/sandbox/sim/index.js';
import { eventually } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;

const ctx = (file: string, name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig: file }).config, name);

describe('the pod status the simulated kubelet reports', () => {
  it('plays failing containers on request: CrashLoopBackOff, ImagePullBackOff, NotReady', async () => {
    const core = makeClient(ctx(kubeconfig, 'kind-cp'), CoreV1Api);
    await createNamespace(core, 'faults');
    for (const fault of ['CrashLoopBackOff', 'ImagePullBackOff', 'NotReady', 'none']) {
      await core.createNamespacedPod({
        namespace: 'faults',
        body: {
          metadata: { name: fault.toLowerCase(), annotations: fault === 'none' ? {} : { [FAULT_ANNOTATION]: fault } },
          spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] },
        },
      });
    }
    const state = async (name: string) => {
      const p = await core.readNamespacedPod({ name, namespace: 'faults' });
      const c = p.status?.containerStatuses?.[0];
      const ready = p.status?.conditions?.find((x) => x.type === 'Ready')?.status;
      return [p.status?.phase, c?.state?.waiting?.reason ?? (c?.state?.running ? 'running' : undefined), ready, c?.restartCount];
    };
    await eventually('faults reported', async () => (await state('crashloopbackoff'))[1] === 'CrashLoopBackOff', 30_000);
    expect(await state('crashloopbackoff')).toEqual(['Running', 'CrashLoopBackOff', 'False', 5]);
    await eventually('image pull', async () => (await state('imagepullbackoff'))[1] === 'ImagePullBackOff', 30_000);
    expect(await state('imagepullbackoff')).toEqual(['Pending', 'ImagePullBackOff', 'False', 0]);
    await eventually('not ready', async () => (await state('notready'))[0] === 'Running', 30_000);
    expect(await state('notready')).toEqual(['Running', 'running', 'False', 0]);
    expect(await state('none')).toEqual(['Running', 'running', 'True', 0]);
    // And records the Warning events a kubelet would.
    const reasons = await eventually('kubelet warnings', async () => {
      const events = (await core.listNamespacedEvent({ namespace: 'faults', fieldSelector: 'type=Warning' })).items;
      const byPod = new Map(events.filter((e) => e.source?.component === 'kubelet').map((e) => [e.involvedObject.name, e.reason]));
      return byPod.size === 3 ? byPod : undefined;
    });
    expect(Object.fromEntries(reasons)).toEqual({ crashloopbackoff: 'BackOff', imagepullbackoff: 'Failed', notready: 'Unhealthy' });
  });

  it('an image it cannot pull (misspelt) waits as on a real node: Pending, ImagePullBackOff, the kubelet’s pull events; the others run', async () => {
    const core = makeClient(ctx(kubeconfig, 'kind-cp'), CoreV1Api);
    await createNamespace(core, 'pulls');
    const create = (name: string, containers: { name: string; image: string }[]) =>
      core.createNamespacedPod({ namespace: 'pulls', body: { metadata: { name }, spec: { containers } } });
    await create('typo', [
      { name: 'app', image: 'registry.k8s.io/pauze:3.9' },
      { name: 'side', image: 'nginx:1.27' },
    ]);
    await create('fine', [{ name: 'app', image: 'registry.example/app:1' }]);
    const typo = await eventually('the pull failure reported', async () => {
      const p = await core.readNamespacedPod({ name: 'typo', namespace: 'pulls' });
      return p.status?.containerStatuses?.length ? p : undefined;
    });
    expect(typo.status?.phase).toBe('Pending');
    const byName = Object.fromEntries((typo.status?.containerStatuses ?? []).map((c) => [c.name, c]));
    expect(byName.app?.state?.waiting).toEqual({
      reason: 'ImagePullBackOff',
      message: 'Back-off pulling image "registry.k8s.io/pauze:3.9"',
    });
    expect(byName.side?.state?.running).toBeDefined();
    const events = await eventually('the kubelet’s pull events', async () => {
      // The kubelet's (the scheduler's Scheduled event is there too).
      const list = (await core.listNamespacedEvent({ namespace: 'pulls', fieldSelector: 'involvedObject.name=typo' })).items.filter(
        (e) => e.source?.component === 'kubelet',
      );
      return list.length >= 5 ? list : undefined;
    });
    expect(events.map((e) => `${e.type} ${e.reason}: ${e.message}`)).toEqual(
      expect.arrayContaining([
        'Normal Pulling: Pulling image "registry.k8s.io/pauze:3.9"',
        expect.stringMatching(/^Warning Failed: Failed to pull image "registry\.k8s\.io\/pauze:3\.9": rpc error: code = NotFound/),
        'Warning Failed: Error: ErrImagePull',
        'Normal BackOff: Back-off pulling image "registry.k8s.io/pauze:3.9"',
        'Warning Failed: Error: ImagePullBackOff',
      ]),
    );
    expect(events.every((e) => e.involvedObject.fieldPath === 'spec.containers{app}')).toBe(true);
    await eventually('the pod of an example registry runs', async () => {
      const p = await core.readNamespacedPod({ name: 'fine', namespace: 'pulls' });
      return p.status?.phase === 'Running';
    });
  });
});
