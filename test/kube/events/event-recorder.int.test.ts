/**
 * Events on a sandbox cluster: written as `kubectl describe` lists them, a repeat aggregated
 * into the first one's count, and a write the user may not do (403) reported once, never thrown.
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { EventRecorder, listObjectEvents } from '../../../src/kube/events/event-recorder.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const CONTEXT = 'kind-workload-1';
let kc: KubeConfig;
let viewer: KubeConfig;

beforeAll(() => {
  kc = configForContext(loadKubeconfig({ kubeconfig: sandbox().kubeconfig }).config, CONTEXT);
  viewer = configForContext(loadKubeconfig({ kubeconfig: sandbox().readOnlyKubeconfig }).config, CONTEXT);
});

describe('EventRecorder', () => {
  it('writes an Event on a Node (namespace default) and aggregates repeats into its count and lastTimestamp', async () => {
    const node = (await makeClient(kc, CoreV1Api).listNode()).items[0]!;
    const name = node.metadata!.name!;
    const uid = node.metadata!.uid!;
    const reason = `TestBlocked${Math.random().toString(36).slice(2, 7)}`;
    const failures: string[] = [];
    const rec = new EventRecorder(kc, { component: 'fleetdeck', instance: 'bastion-1/4242', onFailure: (m) => failures.push(m) });
    const target = { apiVersion: 'v1', kind: 'Node', name, uid };
    rec.record(target, 'Warning', reason, 'eviction of pod a/b refused; retrying');
    rec.record(target, 'Warning', reason, 'eviction of pod a/b refused; retrying');
    rec.record(target, 'Warning', reason, 'eviction of pod a/b refused; retrying');
    rec.record(target, 'Normal', `${reason}Other`, 'something else');
    await rec.flush();
    expect(failures).toEqual([]);

    const mine = (await listObjectEvents(kc, 'default', name, 'Node')).filter((e) => e.reason?.startsWith(reason));
    expect(mine).toHaveLength(2);
    const blocked = mine.find((e) => e.reason === reason)!;
    expect(blocked).toMatchObject({
      type: 'Warning',
      count: 3,
      message: 'eviction of pod a/b refused; retrying',
      involvedObject: { kind: 'Node', name, uid },
      source: { component: 'fleetdeck' },
      reportingComponent: 'fleetdeck',
      reportingInstance: 'bastion-1/4242',
    });
    expect(blocked.lastTimestamp!.getTime()).toBeGreaterThanOrEqual(blocked.firstTimestamp!.getTime());
    expect(mine.find((e) => e.reason === `${reason}Other`)).toMatchObject({ type: 'Normal', count: 1 });
  });

  it('a write refused (403) is reported once and never thrown', async () => {
    const failures: string[] = [];
    const rec = new EventRecorder(viewer, { component: 'fleetdeck', instance: 'x/1', onFailure: (m) => failures.push(m) });
    rec.record({ apiVersion: 'v1', kind: 'Node', name: 'nowhere' }, 'Normal', 'A', 'a');
    rec.record({ apiVersion: 'v1', kind: 'Node', name: 'nowhere' }, 'Normal', 'B', 'b');
    await rec.flush();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^cannot write Events: .*(403|forbidden)/i);
  });
});
