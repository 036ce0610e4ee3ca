import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUNDLE_DIR, type KubeObject, loadBundle } from '../../src/install/bundle.js';
import { bundleImages } from '../../src/install/bundle-images.js';
import { bundleLines, summarizeBundle } from '../../src/install/bundle-summary.js';
import { renderBundle } from '../../src/install/bundle-render.js';
import { UserError } from '../../src/errors.js';
import { writeTree } from '../helpers/kubeconfig/file-tree.js';
import { requireTool } from '../helpers/cli/tools.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-overlays-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of the built-in bundle with `files` (relative to install/) written over it. */
function release(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name, 'install');
  fs.cpSync(DEFAULT_BUNDLE_DIR, dir, { recursive: true });
  return writeTree(dir, files);
}

/** The error a promise rejects with. */
const failure = (p: Promise<unknown>): Promise<Error> =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error,
  );

const find = (objs: KubeObject[], kind: string, name: string) => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};
const spec = (o: KubeObject) => o.spec as any;
const container = (o: KubeObject) => spec(o).template.spec.containers[0];

const CP_HA = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base/control-plane
commonLabels:
  release.example.com/edition: enterprise
replicas:
  - name: nova-scheduler
    count: 2
patches:
  - path: kube-controller-manager.yaml
  - path: apiserver-verbosity.yaml
    target:
      kind: Deployment
      name: apiserver
images:
  - name: registry.k8s.io/kube-apiserver
    newName: r.example/nova/kube-apiserver
    newTag: v1.28.4-nova.1
`;

// A strategic-merge patch: containers merge by name, so the new flag is added beside the base's.
const CM_PATCH = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: controller-manager
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: kube-controller-manager
          args:
            - --kubeconfig=/etc/nova/pki/kubeconfig
            - --authentication-kubeconfig=/etc/nova/pki/kubeconfig
            - --authorization-kubeconfig=/etc/nova/pki/kubeconfig
            - --bind-address=0.0.0.0
            - --secure-port=10257
            - --leader-elect=true
            - --concurrent-gc-syncs=40
`;

// A JSON 6902 patch (kustomize's `patches:` with a target).
const JSON_PATCH = `- op: add
  path: /spec/template/spec/containers/0/args/-
  value: --v=4
`;

describe("a bundle's overlays beyond images (kubectl kustomize)", { timeout: 60_000 }, () => {
  beforeAll(() => {
    requireTool('kubectl');
  });

  it('gives the objects kubectl kustomize overlays/cp-ha gives: patches, replicas, commonLabels, and still the images', async () => {
    const dir = release('patched', {
      'overlays/cp-ha/kustomization.yaml': CP_HA,
      'overlays/cp-ha/kube-controller-manager.yaml': CM_PATCH,
      'overlays/cp-ha/apiserver-verbosity.yaml': JSON_PATCH,
    });
    const b = await loadBundle(dir);
    const cm = find(b.controlPlane, 'Deployment', 'controller-manager');
    expect(container(cm).args).toContain('--concurrent-gc-syncs=40');
    expect(spec(cm).replicas).toBe(2);
    // The base's fields the patch does not name stay (the certificates' Secret the install makes).
    expect(spec(cm).template.spec.volumes[0].secret.secretName).toBe('nova-controller-manager');
    const api = find(b.controlPlane, 'Deployment', 'apiserver');
    expect(container(api).args.at(-1)).toBe('--v=4');
    expect(container(api).image).toBe('r.example/nova/kube-apiserver:v1.28.4-nova.1');
    expect(spec(find(b.controlPlane, 'Deployment', 'nova-scheduler')).replicas).toBe(2);
    for (const o of b.controlPlane) expect(o.metadata.labels?.['release.example.com/edition']).toBe('enterprise');
    // apiserver.yaml and nova_crds.yaml beside the base are still read on their own.
    expect(b.service.metadata.name).toBe('apiserver');
    expect(b.crds.length).toBeGreaterThan(0);
    // Images in the base's manifest order, as without the overlay.
    expect(bundleImages(b.controlPlane)[0]).toBe('registry.k8s.io/etcd:3.5.9-0');

    const s = summarizeBundle(b);
    expect(s.overlays?.[0]).toEqual({
      name: 'overlays/cp-ha',
      fields: ['resources', 'commonLabels', 'replicas', 'patches', 'images'],
    });
    expect(bundleLines(s)).toContain('Overlays: overlays/cp-ha: resources, commonLabels, replicas, patches, images');
  });

  it('renders for a fleet as today: the install sets the namespace and HA (--no-ha) over the patched objects', async () => {
    const dir = release('rendered', {
      // The built-in HA patch of etcd (three members) and a JSON 6902 patch of the API server
      'overlays/cp-ha/kustomization.yaml':
        'resources:\n  - ../../base/control-plane\npatches:\n  - path: etcd.yaml\n  - path: apiserver-verbosity.yaml\n    target:\n      kind: Deployment\n      name: apiserver\n',
      'overlays/cp-ha/apiserver-verbosity.yaml': JSON_PATCH,
    });
    const r = renderBundle(await loadBundle(dir), {
      namespace: 'nova',
      ha: false,
      topologyKey: 'topology.kubernetes.io/zone',
      clusters: ['c1'],
    });
    const api = find(r.controlPlane as KubeObject[], 'Deployment', 'apiserver');
    expect(container(api).args.at(-1)).toBe('--v=4');
    expect(api.metadata.namespace).toBe('nova');
    const etcd = find(r.controlPlane as KubeObject[], 'StatefulSet', 'etcd');
    expect(spec(etcd).replicas).toBe(1);
    expect(container(etcd).args.find((a: string) => a.startsWith('--initial-cluster='))).toBe(
      '--initial-cluster=etcd-0=https://etcd-0.etcd.$(POD_NAMESPACE).svc:2380',
    );
  });

  it("renders the agent's overlay (a label for every object); the cluster name and namespace stay the install's to set", async () => {
    const dir = release('agent', {
      'overlays/workload-cluster-1/kustomization.yaml':
        'resources:\n  - ../../base/agent\nnamespace: elotl\ncommonLabels:\n  tier: agent\npatches:\n  - path: nova_agent.yaml\n',
    });
    const b = await loadBundle(dir);
    for (const o of b.agent) expect(o.metadata.labels?.tier).toBe('agent');
    expect(container(find(b.agent, 'Deployment', 'nova-agent')).args).toContain('--cluster-name=kind-workload-1');
    expect(summarizeBundle(b).overlays?.map((o) => o.name)).toEqual(['overlays/cp-ha', 'overlays/workload-cluster-1']);
  });

  it('an overlay with a broken patch fails in one line naming it', async () => {
    const dir = release('broken', {
      'overlays/cp-ha/kustomization.yaml': 'resources:\n  - ../../base/control-plane\npatches:\n  - path: missing-patch.yaml\n',
    });
    const err = await failure(loadBundle(dir));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).not.toContain('\n');
    expect(err.message).toContain(path.join(dir, 'overlays', 'cp-ha'));
    expect(err.message).toContain('missing-patch.yaml');
    expect(err.message).not.toMatch(/failed: >$/);
  });

  it('an overlay whose patch is not a patch fails in one line naming the patch file', async () => {
    const dir = release('unparsable', {
      'overlays/cp-ha/kustomization.yaml': 'resources:\n  - ../../base/control-plane\npatches:\n  - path: bad.yaml\n',
      'overlays/cp-ha/bad.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nosuch\nspec:\n  replicas: [\n',
    });
    const err = await failure(loadBundle(dir));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).not.toContain('\n');
    expect(err.message).toMatch(/^kubectl kustomize \S+cp-ha failed: .*bad\.yaml/);
  });
});

describe("a bundle's overlays the install cannot honour", () => {
  it('namePrefix is refused in one line naming the file and the field', async () => {
    const dir = release('prefixed', {
      'overlays/cp-ha/kustomization.yaml': 'resources:\n  - ../../base/control-plane\nnamePrefix: nova-\n',
    });
    const err = await failure(loadBundle(dir));
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(2);
    expect(err.message).toBe(
      `${path.join(dir, 'overlays', 'cp-ha', 'kustomization.yaml')}: namePrefix is not supported (the install refers to the bundle's objects and Secrets by name); remove it`,
    );
  });

  it('the built-in bundle is read from its base: its overlays are what the HA and cluster-name transforms do', async () => {
    const b = await loadBundle();
    expect(b.overlays).toEqual([]);
    expect(summarizeBundle(b).overlays).toBeUndefined();
  });
});
