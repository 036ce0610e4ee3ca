import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUNDLE_DIR, forNamespace, loadBundle, withClusterName, withHA, withoutHA, type Bundle } from '../../src/install/bundle.js';
import { UserError } from '../../src/errors.js';
import { writeTree } from '../helpers/kubeconfig/file-tree.js';
import { requireTool } from '../helpers/cli/tools.js';
import { args, byKey, failure, find } from './bundle-lookup.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-bundle-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Writes files (relative path → text) under a fresh directory of the temp dir. */
const tree = (name: string, files: Record<string, string>): string => writeTree(path.join(tmp, name), files);

let bundle: Bundle;
beforeAll(async () => {
  bundle = await loadBundle();
});

const SERVICE = `# the API server
apiVersion: v1
kind: Service
metadata:
  name: apiserver
spec:
  type: LoadBalancer
  selector: {component: apiserver}
  ports: [{port: 443, targetPort: 6443}]
`;
const DEPLOYMENT = (name: string, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  selector: {matchLabels: {component: ${name}}}
  template:
    metadata: {labels: {component: ${name}}}
    spec:
      containers: [{name: ${name}, image: ${image}}]
`;

describe('vendor bundles (--bundle DIR)', () => {
  it('plain directories: every .yaml/.yml file in name order, several documents each, empty ones skipped', async () => {
    const dir = tree('plain', {
      'base/control-plane/b-apiserver.yml': SERVICE,
      'base/control-plane/a-components.yaml': `${DEPLOYMENT('apiserver', 'example.com/apiserver:1')}---\n---\n# nothing\n---\n${DEPLOYMENT('controller-manager', 'example.com/cm:1')}`,
      'base/control-plane/c-crds.yaml': `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: clusters.cluster.elotl.co}\nspec: {group: cluster.elotl.co}\n`,
      'base/control-plane/README.md': 'not a manifest',
      'base/agent/agent.yaml': `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ServiceAccount\n  metadata: {name: nova-agent}\n- ${DEPLOYMENT('nova-agent', 'example.com/agent:1').replaceAll('\n', '\n  ')}`,
    });
    const b = await loadBundle(dir);
    expect(b.source).toBe(dir);
    expect(b.service.metadata.name).toBe('apiserver');
    expect(b.controlPlane.map((o) => o.metadata.name)).toEqual(['apiserver', 'controller-manager']);
    expect(b.crds.map((o) => o.metadata.name)).toEqual(['clusters.cluster.elotl.co']);
    expect(b.agent.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['ServiceAccount/nova-agent', 'Deployment/nova-agent']);
    // A directory holding install/ works too.
    const outer = path.join(tmp, 'outer');
    fs.mkdirSync(outer);
    fs.renameSync(dir, path.join(outer, 'install'));
    expect((await loadBundle(outer)).source).toBe(path.join(outer, 'install'));
  });

  it('reads YAML as kubectl does: 0400 is octal, timestamps stay strings', async () => {
    const dir = tree('yaml11', {
      'base/control-plane/all.yaml': `${SERVICE}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {day: 2001-12-14, time: 12:30}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\nmode: 0400\n`,
      'base/agent/a.yaml': DEPLOYMENT('nova-agent', 'x'),
    });
    const b = await loadBundle(dir);
    expect(find(b.controlPlane, 'ConfigMap', 'c').data).toEqual({ day: '2001-12-14', time: '12:30' });
    expect(find(b.controlPlane, 'Secret', 's').mode).toBe(256);
  });

  it('a directory without base/agent: one line naming what is missing', async () => {
    const dir = tree('no-agent', { 'base/control-plane/a.yaml': SERVICE });
    const err = await failure(loadBundle(dir));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toBe(
      `${dir} is not a Nova install bundle: base/agent is missing (expected base/control-plane and base/agent, as Nova's install/ directory)`,
    );
    const empty = tree('empty', { 'README.md': 'x' });
    expect((await failure(loadBundle(empty))).message).toContain('base/control-plane and base/agent are missing');
    expect((await failure(loadBundle(path.join(tmp, 'nowhere')))).message).toMatch(/nowhere is not a directory/);
  });

  it('broken YAML: the error names the file and the line', async () => {
    const dir = tree('broken', {
      'base/control-plane/apiserver.yaml': SERVICE,
      'base/control-plane/etcd.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: etcd\n spec: oops\n',
      'base/agent/a.yaml': DEPLOYMENT('nova-agent', 'x'),
    });
    const err = await failure(loadBundle(dir));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toMatch(
      new RegExp(`^${path.join(dir, 'base/control-plane/etcd.yaml').replaceAll('/', '\\/')}:5:\\d+: invalid YAML: .+$`),
    );
    expect(err.message).not.toContain('\n');
  });

  it('documents that are not Kubernetes objects, a missing apiserver Service, duplicates: named errors', async () => {
    const agent = { 'base/agent/a.yaml': DEPLOYMENT('nova-agent', 'x') };
    const notObject = tree('not-object', { ...agent, 'base/control-plane/a.yaml': `${SERVICE}---\njust: a mapping\n` });
    expect((await failure(loadBundle(notObject))).message).toBe(
      `${path.join(notObject, 'base/control-plane/a.yaml')}:11: not a Kubernetes object (needs apiVersion, kind and metadata.name)`,
    );
    const noService = tree('no-service', { ...agent, 'base/control-plane/a.yaml': DEPLOYMENT('apiserver', 'x') });
    expect((await failure(loadBundle(noService))).message).toMatch(/has no Service named apiserver/);
    const clusterIP = tree('cluster-ip', {
      ...agent,
      'base/control-plane/a.yaml': SERVICE.replace('type: LoadBalancer', 'type: ClusterIP'),
    });
    expect((await failure(loadBundle(clusterIP))).message).toMatch(/Service apiserver must be of type LoadBalancer \(it is ClusterIP\)/);
    const twice = tree('twice', { ...agent, 'base/control-plane/a.yaml': SERVICE, 'base/control-plane/b.yaml': SERVICE });
    expect((await failure(loadBundle(twice))).message).toMatch(/Service apiserver is defined twice \(.*a\.yaml and .*b\.yaml\)/);
  });

  it('a kustomization that needs rendering, without kubectl on PATH: one clear line', async () => {
    const dir = tree('kustomized-no-kubectl', {
      'base/control-plane/apiserver.yaml': SERVICE,
      'base/agent/kustomization.yaml': 'namespace: elotl\nresources:\n  - a.yaml\n',
      'base/agent/a.yaml': DEPLOYMENT('nova-agent', 'x'),
    });
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      const err = await failure(loadBundle(dir));
      expect(err).toBeInstanceOf(UserError);
      expect(err.message).toBe(
        `${path.join(dir, 'base/agent')} is a kustomization directory; rendering it needs kubectl on PATH (install kubectl, or pass a directory of plain manifests)`,
      );
    } finally {
      process.env.PATH = saved;
    }
  });

  it("kustomization directories rendered by kubectl: Nova's overlays equal the transforms", async () => {
    requireTool('kubectl');
    // A vendor bundle whose bases are the default bundle's overlays: base/control-plane renders
    // overlays/cp-ha (apiserver.yaml and nova_crds.yaml beside it, as the install guide applies them),
    // base/agent renders overlays/workload-cluster-1.
    const dir = path.join(tmp, 'kustomized');
    fs.cpSync(DEFAULT_BUNDLE_DIR, path.join(dir, 'upstream'), { recursive: true });
    tree('kustomized', {
      'base/control-plane/Kustomization': 'resources:\n  - ../../upstream/overlays/cp-ha\n',
      'base/control-plane/apiserver.yaml': fs.readFileSync(path.join(DEFAULT_BUNDLE_DIR, 'base/control-plane/apiserver.yaml'), 'utf8'),
      'base/control-plane/nova_crds.yaml': fs.readFileSync(path.join(DEFAULT_BUNDLE_DIR, 'base/control-plane/nova_crds.yaml'), 'utf8'),
      'base/agent/kustomization.yml': 'resources:\n  - ../../upstream/overlays/workload-cluster-1\n',
    });
    const b = await loadBundle(dir);
    expect(b.service).toEqual(bundle.service);
    expect(b.crds).toEqual(bundle.crds);
    expect(byKey(b.controlPlane)).toEqual(byKey(withHA(bundle.controlPlane, { replicas: 3, topologyKey: 'topology.kubernetes.io/zone' })));
    expect(byKey(withoutHA(b.controlPlane))).toEqual(byKey(bundle.controlPlane));
    expect(byKey(b.agent)).toEqual(byKey(forNamespace(withClusterName(bundle.agent, 'kind-workload-1'), 'elotl')));
    // The second example overlay names its cluster kind-workload-2.
    const second = path.join(tmp, 'kustomized-2');
    fs.cpSync(dir, second, { recursive: true });
    fs.writeFileSync(path.join(second, 'base/agent/kustomization.yml'), 'resources:\n  - ../../upstream/overlays/workload-cluster-2\n');
    expect(args(find((await loadBundle(second)).agent, 'Deployment', 'nova-agent'))).toEqual([
      '--cluster-name=kind-workload-2',
      '--kubeconfig=/etc/nova/init/kubeconfig',
    ]);
  }, 60_000);

  it('a failing kustomization: kubectl error in one line', async () => {
    requireTool('kubectl');
    const dir = tree('kustomize-fails', {
      'base/control-plane/apiserver.yaml': SERVICE,
      'base/agent/kustomization.yaml': 'namespace: elotl\nresources:\n  - missing.yaml\n',
    });
    const err = await failure(loadBundle(dir));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toMatch(new RegExp(`^kubectl kustomize ${path.join(dir, 'base/agent')} failed: .*missing\\.yaml`));
    expect(err.message).not.toContain('\n');
  });
});
