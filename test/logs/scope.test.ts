import type { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { LogPod } from '../../src/kube/pods/workloads.js';
import { allSources, nothingMatched, resolveScope, type ResolvedScope } from '../../src/logs/scope.js';

const kc = {} as KubeConfig;
const pod = (name: string, containers: string[]): LogPod => ({
  namespace: 'shop',
  name,
  uid: name,
  labels: {},
  containers,
  initContainers: [],
  statuses: {},
  deleting: false,
  finished: false,
});

describe('resolveScope without a request', () => {
  it('-l: the selector goes to the server', async () => {
    const s = await resolveScope({ context: 'w1', kc, namespace: 'shop', selection: { selector: 'app=web' } });
    expect(s.query).toEqual({ labelSelector: 'app=web' });
    expect(s.what).toBe('pods matching app=web');
  });

  it('the control plane: its components’ labels, matched here', async () => {
    const s = await resolveScope({ context: 'cp', kc, namespace: 'elotl', selection: { controlPlane: true } });
    expect(s.query.match?.({ app: 'etcd' })).toBe(true);
    expect(s.query.match?.({ component: 'apiserver' })).toBe(true);
    expect(s.query.match?.({ component: 'nova-scheduler' })).toBe(true);
    expect(s.query.match?.({ app: 'nova-agent' })).toBe(false);
  });

  it('a pod: by name', async () => {
    const s = await resolveScope({ context: 'w1', kc, namespace: 'shop', selection: { target: { kind: 'pod', name: 'web-1' } } });
    expect(s.query).toEqual({ name: 'web-1' });
  });
});

describe('allSources', () => {
  const scope = (context: string): ResolvedScope => ({
    context,
    kc,
    namespace: 'shop',
    selection: { selector: 'app=web' },
    query: { labelSelector: 'app=web' },
    what: 'pods matching app=web',
  });

  it('every pod of every context, each container a source', () => {
    const got = allSources(
      [
        { scope: scope('w1'), pods: [pod('a', ['app'])] },
        { scope: scope('w2'), pods: [pod('b', ['app', 'side'])] },
      ],
      {},
    );
    expect(got.map((s) => `${s.context}/${s.pod}/${s.container}`)).toEqual(['w1/a/app', 'w2/b/app', 'w2/b/side']);
  });

  it('-c: pods without it are skipped; when none has it, the line names what they have', () => {
    const listed = [{ scope: scope('w1'), pods: [pod('a', ['app']), pod('b', ['app', 'side'])] }];
    expect(allSources(listed, { container: 'side' }).map((s) => s.pod)).toEqual(['b']);
    expect(() => allSources(listed, { container: 'nope' })).toThrow('container nope is not valid for the 2 pods; it has: [app side]');
  });

  it('nothing matched: the line names what and where', () => {
    expect(nothingMatched([scope('w1'), scope('w2')])).toBe(
      'no pods for pods matching app=web in namespace shop of w1, namespace shop of w2',
    );
  });
});
