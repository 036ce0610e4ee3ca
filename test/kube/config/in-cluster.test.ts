import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN_CLUSTER_CONTEXT, inClusterConfig, serviceAccountDir } from '../../../src/kube/config/in-cluster.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';

/** A pod's service-account directory under a root, as a runtime that cannot mount it at / lays it out. */
function podRoot(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-pod-'));
  const dir = serviceAccountDir({ FLEETDECK_SERVICEACCOUNT_ROOT: root });
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return root;
}

describe('in-cluster credentials', () => {
  it('are the service host and port, the token file and the CA of the pod, in its namespace', () => {
    const root = podRoot({ token: 'abc\n', 'ca.crt': 'CA', namespace: 'fleetdeck-system' });
    const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443', FLEETDECK_SERVICEACCOUNT_ROOT: root };
    const c = inClusterConfig(env)!;
    expect(c.cluster).toMatchObject({
      server: 'https://10.96.0.1:443',
      caFile: `${root}/var/run/secrets/kubernetes.io/serviceaccount/ca.crt`,
    });
    expect(c.user.tokenFile).toBe(`${root}/var/run/secrets/kubernetes.io/serviceaccount/token`);
    expect(c.namespace).toBe('fleetdeck-system');
    expect(inClusterConfig({ ...env, KUBERNETES_SERVICE_HOST: 'fd00::1' })!.cluster.server).toBe('https://[fd00::1]:443');
  });

  it('are absent outside a pod: no service host, or no token', () => {
    const root = podRoot({ 'ca.crt': 'CA' });
    expect(inClusterConfig({})).toBeUndefined();
    expect(
      inClusterConfig({ KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443', FLEETDECK_SERVICEACCOUNT_ROOT: root }),
    ).toBeUndefined();
  });

  it('are what loadKubeconfig gives when no kubeconfig file exists, and never beside one', () => {
    const root = podRoot({ token: 'abc', 'ca.crt': 'CA' });
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-home-'));
    const env = { HOME: home, KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '6443', FLEETDECK_SERVICEACCOUNT_ROOT: root };
    const { files, config } = loadKubeconfig({ env });
    expect(files).toEqual([]);
    expect(config.getCurrentContext()).toBe(IN_CLUSTER_CONTEXT);
    expect(configForContext(config, IN_CLUSTER_CONTEXT).getCurrentCluster()?.server).toBe('https://10.96.0.1:6443');

    fs.mkdirSync(path.join(home, '.kube'));
    fs.writeFileSync(
      path.join(home, '.kube', 'config'),
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://x:1"}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: k, context: {cluster: c, user: u}}]\ncurrent-context: k\n',
    );
    expect(
      loadKubeconfig({ env })
        .config.getContexts()
        .map((c) => c.name),
    ).toEqual(['k']);
  });
});
