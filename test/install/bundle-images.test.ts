import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUNDLE_DIR, type KubeObject, loadBundle } from '../../src/install/bundle.js';
import {
  agentOverlayImages,
  bundleImages,
  imageName,
  kustomizationImages,
  overrideImage,
  withImages,
} from '../../src/install/bundle-images.js';
import { UserError } from '../../src/errors.js';
import { writeTree } from '../helpers/kubeconfig/file-tree.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-bundle-images-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const obj = (apiVersion: string, kind: string, name: string, spec: unknown): KubeObject => ({ apiVersion, kind, metadata: { name }, spec });
const pod = (containers: string[], init: string[] = []) => ({
  containers: containers.map((image, i) => ({ name: `c${i}`, image })),
  ...(init.length ? { initContainers: init.map((image, i) => ({ name: `i${i}`, image })) } : {}),
});

describe('bundleImages', () => {
  it('collects containers and init containers of every kind of workload, in order, each once', () => {
    const objs = [
      obj('v1', 'Service', 'apiserver', { type: 'LoadBalancer' }),
      obj('apps/v1', 'Deployment', 'a', { template: { spec: pod(['reg/a:1'], ['reg/init:1']) } }),
      obj('apps/v1', 'StatefulSet', 'etcd', { template: { spec: pod(['reg/etcd:3', 'reg/a:1']) } }),
      obj('apps/v1', 'DaemonSet', 'ds', { template: { spec: pod(['reg/ds:2']) } }),
      obj('batch/v1', 'Job', 'job', { template: { spec: pod(['reg/job:1']) } }),
      obj('batch/v1', 'CronJob', 'cron', { jobTemplate: { spec: { template: { spec: pod(['reg/cron:1']) } } } }),
      obj('v1', 'Pod', 'p', pod(['reg/pod:1'], ['reg/init:1'])),
      obj('v1', 'ConfigMap', 'cm', undefined),
    ];
    expect(bundleImages(objs)).toEqual(['reg/init:1', 'reg/a:1', 'reg/etcd:3', 'reg/ds:2', 'reg/job:1', 'reg/cron:1', 'reg/pod:1']);
  });

  it('ignores custom kinds that look like workloads, containers without an image and missing templates', () => {
    const objs = [
      obj('example.com/v1', 'Deployment', 'custom', { template: { spec: pod(['not/this:1']) } }),
      obj('apps/v1', 'Deployment', 'no-template', {}),
      obj('apps/v1', 'Deployment', 'no-image', { template: { spec: { containers: [{ name: 'x' }, 'junk'] } } }),
    ];
    expect(bundleImages(objs)).toEqual([]);
  });
});

describe("kustomize's image transformer", () => {
  it('matches the name without tag or digest, registry ports included', () => {
    expect(imageName('registry.k8s.io/etcd:3.5.9-0')).toBe('registry.k8s.io/etcd');
    expect(imageName('localhost:5000/a/b')).toBe('localhost:5000/a/b');
    expect(imageName('localhost:5000/a/b:v1@sha256:abc')).toBe('localhost:5000/a/b');
    expect(imageName('busybox@sha256:abc')).toBe('busybox');
  });

  it('replaces name, tag or digest as kustomize does', () => {
    const img = 'registry.k8s.io/etcd:3.5.9-0';
    expect(overrideImage(img, { name: 'registry.k8s.io/etcd', newName: 'r.example/nova/etcd' })).toBe('r.example/nova/etcd:3.5.9-0');
    expect(overrideImage(img, { name: 'registry.k8s.io/etcd', newTag: '3.5.10' })).toBe('registry.k8s.io/etcd:3.5.10');
    expect(overrideImage(img, { name: 'registry.k8s.io/etcd', newName: 'x/etcd', newTag: '1' })).toBe('x/etcd:1');
    expect(overrideImage(img, { name: 'registry.k8s.io/etcd', newTag: '1', digest: 'sha256:ff' })).toBe('registry.k8s.io/etcd@sha256:ff');
    expect(overrideImage(img, { name: 'etcd', newTag: '1' })).toBe(img);
  });

  it('applies to containers and init containers, leaves the input alone, and twice is once', () => {
    const dep = obj('apps/v1', 'Deployment', 'a', { template: { spec: pod(['reg/a:1'], ['reg/a:1']) } });
    const images = [{ name: 'reg/a', newName: 'other/a', newTag: '2' }];
    const once = withImages([dep], images);
    expect(bundleImages(once)).toEqual(['other/a:2']);
    expect(bundleImages([dep])).toEqual(['reg/a:1']);
    expect(withImages(once, images)).toEqual(once);
  });
});

/** Writes files (relative path → text) under a fresh directory of the temp dir. */
const tree = (name: string, files: Record<string, string>): string => writeTree(path.join(tmp, name), files);

describe("the overlays' images", () => {
  it('reads images: of a kustomization (a tag that looks like a number as written), none without one', async () => {
    const dir = tree('k', { 'kustomization.yaml': 'images:\n  - name: a\n    newTag: 1.20\n  - name: b\n    newName: c\n' });
    expect(await kustomizationImages(dir)).toEqual([
      { name: 'a', newTag: '1.20' },
      { name: 'b', newName: 'c' },
    ]);
    expect(await kustomizationImages(path.join(tmp, 'none'))).toEqual([]);
    const bad = tree('bad', { 'kustomization.yaml': 'images:\n  - newTag: "1"\n' });
    await expect(kustomizationImages(bad)).rejects.toThrow(/images\[0\] needs a name/);
  });

  it('the workload overlays must agree on the agent image', async () => {
    const agree = tree('agree', {
      'overlays/workload-cluster-1/kustomization.yaml': 'images:\n  - name: elotl/nova-agent\n    newTag: v0.8.0\n',
      'overlays/workload-cluster-2/kustomization.yaml': 'images:\n  - name: elotl/nova-agent\n    newTag: v0.8.0\n',
    });
    expect(await agentOverlayImages(agree)).toEqual([{ name: 'elotl/nova-agent', newTag: 'v0.8.0' }]);
    const differ = tree('differ', {
      'overlays/workload-cluster-1/kustomization.yaml': 'images:\n  - name: elotl/nova-agent\n    newTag: v0.8.0\n',
      'overlays/workload-cluster-2/kustomization.yaml': 'images:\n  - name: elotl/nova-agent\n    newTag: v0.9.0\n',
    });
    const err = await agentOverlayImages(differ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      'overlays/workload-cluster-1 and overlays/workload-cluster-2 replace image elotl/nova-agent differently: make them agree (fleetdeck installs one agent image on every cluster)',
    );
  });

  it('a bundle whose overlays pin images runs those images (as kubectl apply -k overlays/… would), without kubectl', async () => {
    const dir = path.join(tmp, 'release', 'install');
    fs.cpSync(DEFAULT_BUNDLE_DIR, dir, { recursive: true });
    // Overlays that only list their base and pin images: read without rendering.
    const plain = 'resources:\n  - ../../base/control-plane\n';
    fs.writeFileSync(path.join(dir, 'overlays/cp-ha/kustomization.yaml'), plain);
    for (const n of [1, 2])
      fs.writeFileSync(path.join(dir, `overlays/workload-cluster-${n}/kustomization.yaml`), 'resources:\n  - ../../base/agent\n');
    fs.appendFileSync(
      path.join(dir, 'overlays/cp-ha/kustomization.yaml'),
      'images:\n  - name: registry.k8s.io/kube-apiserver\n    newName: r.example/nova/kube-apiserver\n    newTag: v1.28.4-nova.1\n',
    );
    for (const n of [1, 2])
      fs.appendFileSync(
        path.join(dir, `overlays/workload-cluster-${n}/kustomization.yaml`),
        'images:\n  - name: elotl/nova-agent\n    newName: r.example/elotl/nova-agent\n    newTag: v0.8.0\n',
      );
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      const b = await loadBundle(dir);
      expect(bundleImages(b.controlPlane)).toEqual([
        'registry.k8s.io/etcd:3.5.9-0',
        'r.example/nova/kube-apiserver:v1.28.4-nova.1',
        'registry.k8s.io/kube-controller-manager:v1.28.4',
        'registry.k8s.io/kube-scheduler:v1.28.4',
      ]);
      expect(bundleImages(b.agent)).toEqual(['r.example/elotl/nova-agent:v0.8.0']);
    } finally {
      process.env.PATH = saved;
    }
  });
});
