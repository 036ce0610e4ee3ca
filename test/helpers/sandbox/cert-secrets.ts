import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { certSecrets, generateCertSet, initKubeconfig } from '../../../src/install/certs/index.js';
import { apiserverUrl } from '../../../src/install/certs/specs.js';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { ignore } from './nova.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/**
 * The install's certificate Secrets in `namespace` of the hosting context, and its init
 * kubeconfig in the same namespace of a workload context, as the install writes them (one etcd
 * member). `kc(context)` is that context's KubeConfig; `dropNamespaces` takes them away again.
 */
export async function writeCertSecrets(kubeconfig: string, namespace: string, hosting: string, workload: string) {
  const kc = (context: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig }).config, context);
  const address = { ip: '172.18.255.210' };
  const { set } = await generateCertSet({ namespace, apiserverAddress: address, etcdMembers: 1 });
  for (const context of [hosting, workload]) {
    await makeClient(kc(context), CoreV1Api)
      .createNamespace({ body: { metadata: { name: namespace } } })
      .catch(ignore(409));
  }
  const core = makeClient(kc(hosting), CoreV1Api);
  for (const body of certSecrets(set)) await core.createNamespacedSecret({ namespace, body }).catch(ignore(409));
  const init = {
    metadata: { name: 'nova-cluster-init-kubeconfig' },
    data: { kubeconfig: b64(initKubeconfig(set, apiserverUrl(address))) },
  };
  await makeClient(kc(workload), CoreV1Api).createNamespacedSecret({ namespace, body: init }).catch(ignore(409));
  return {
    kc,
    dropNamespaces: async () => {
      for (const context of [hosting, workload]) {
        await makeClient(kc(context), CoreV1Api).deleteNamespace({ name: namespace }).catch(ignore(404));
      }
    },
  };
}
