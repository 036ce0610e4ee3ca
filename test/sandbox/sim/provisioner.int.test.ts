import { AppsV1Api, CoreV1Api, StorageV1Api, type KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { eventually } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;

const ctx = (file: string, name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig: file }).config, name);

describe('the simulated storage provisioner', () => {
  it('provisions and binds volumes so a StatefulSet with claims reaches Running', async () => {
    const kc = ctx(kubeconfig, 'kind-cp');
    const core = makeClient(kc, CoreV1Api);
    const apps = makeClient(kc, AppsV1Api);
    const classes = (await makeClient(kc, StorageV1Api).listStorageClass()).items;
    const defaults = classes.filter((c) => c.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true');
    expect(defaults).toHaveLength(1);
    await createNamespace(core, 'sts');
    const labels = { app: 'etcd' };
    await apps.createNamespacedStatefulSet({
      namespace: 'sts',
      body: {
        metadata: { name: 'etcd' },
        spec: {
          serviceName: 'etcd',
          replicas: 3,
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: 'etcd', image: 'registry.k8s.io/pause:3.9' }] } },
          volumeClaimTemplates: [
            { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
          ],
        },
      },
    });
    await eventually(
      '3 etcd pods Running',
      async () => {
        const pods = (await core.listNamespacedPod({ namespace: 'sts', labelSelector: 'app=etcd' })).items;
        return pods.length === 3 && pods.every((p) => p.status?.phase === 'Running');
      },
      120_000,
    );
    const claims = (await core.listNamespacedPersistentVolumeClaim({ namespace: 'sts' })).items;
    expect(claims.map((c) => c.status?.phase)).toEqual(['Bound', 'Bound', 'Bound']);
  });
});
