import { describe, expect, it } from 'vitest';
import { makeJsonClient } from '../../../src/kube/transport/client.js';
import { configForContext, contextInfos, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { listJsonPaged, listProtoPaged } from '../../../src/kube/watch/list.js';
import { summarizeNode } from '../../../src/kube/nodes/nodes.js';
import { decodeNode } from '../../../src/kube/protobuf/node.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;

describe('nodes listed in protobuf summarise as in JSON (real API servers)', () => {
  it('every node of every sandbox context', async () => {
    const { config } = loadKubeconfig({ kubeconfig });
    const contexts = contextInfos(config);
    expect(contexts.length).toBeGreaterThan(0);
    for (const { name } of contexts) {
      const client = makeJsonClient(configForContext(config, name), 30_000);
      const json = await listJsonPaged(client, '/api/v1/nodes', {}, summarizeNode, { watchCache: true });
      const proto = await listProtoPaged(client, '/api/v1/nodes', {}, (b, s, e) => summarizeNode(decodeNode(b, s, e)), summarizeNode, {
        watchCache: true,
      });
      expect(json.items.length, name).toBeGreaterThan(0);
      const byName = (xs: { name: string }[]) => [...xs].sort((a, b) => a.name.localeCompare(b.name));
      expect(byName(proto.items), name).toEqual(byName(json.items));
    }
  });
});
