import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { eventually } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;

const ctx = (file: string, name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig: file }).config, name);

describe('the simulated load balancer', () => {
  it('gives a LoadBalancer Service an ingress IP on loopback', async () => {
    const core = makeClient(ctx(kubeconfig, 'kind-cp'), CoreV1Api);
    await createNamespace(core, 'lb');
    await core.createNamespacedService({
      namespace: 'lb',
      body: { metadata: { name: 'apiserver' }, spec: { type: 'LoadBalancer', selector: { app: 'x' }, ports: [{ port: 443 }] } },
    });
    const ip = await eventually('ingress IP', async () => {
      const s = await core.readNamespacedService({ name: 'apiserver', namespace: 'lb' });
      return s.status?.loadBalancer?.ingress?.[0]?.ip;
    });
    expect(ip).toMatch(/^127\./);
  });
});
