import { describe, expect, it } from 'vitest';
import { parseImage, pullable, unpullableImage } from '../../../src/sandbox/sim/images.js';

describe('the images the sandbox can pull', () => {
  it('the bundle’s repositories with tags of their form, fleetdeck’s own, common public images and example registries', () => {
    for (const image of [
      'registry.k8s.io/kube-apiserver:v1.28.4',
      'registry.k8s.io/kube-controller-manager:v1.28.5',
      'registry.k8s.io/etcd:3.5.9-0',
      'registry.k8s.io/pause:3.9',
      'elotl/nova-agent:v0.7.1',
      'ghcr.io/fleetdeck/fleetdeck:0.1.0',
      'localhost:5000/fleetdeck@sha256:abc',
      'nginx',
      'nginx:1.27',
      'docker.io/library/busybox:1.36',
      'registry.example/app:1',
      'example.com/shop:1.0',
      'registry.example.com/team/app:3',
      'REGISTRY.EXAMPLE/app:1',
      'library/nginx:1.27',
      'registry-1.docker.io/library/redis:7',
      'k8s.gcr.io/kube-apiserver:v1.20.2',
      'gcr.io/etcd-development/etcd:v3.5.9',
      'registry.k8s.io/kube-apiserver:v1.31.0-rc.1',
    ])
      expect(pullable(image), image).toBe(true);
  });

  it('a misspelt repository or a tag that cannot exist is not there, as on a real node', () => {
    for (const image of [
      'registry.k8s.io/kube-controler-manager:v1.28.5',
      'registry.k8s.io/kube-controller-manager:v1.28.99-missing',
      'registry.k8s.io/pauze:3.9',
      'elotl/nova-agnet:v0.7.0',
      'myorg/app:1.0',
      'ngnix:1.27',
      'notexample.com/app:1',
    ])
      expect(pullable(image), image).toBe(false);
  });

  it('reads repository, tag and digest as a container runtime does', () => {
    expect(parseImage('localhost:5000/a/b:v1@sha256:x')).toEqual({ repository: 'localhost:5000/a/b', tag: 'v1', digest: 'sha256:x' });
    expect(parseImage('localhost:5000/a')).toEqual({ repository: 'localhost:5000/a' });
    expect(parseImage('docker.io/library/nginx:1.27')).toEqual({ repository: 'nginx', tag: '1.27' });
    expect(unpullableImage([{ image: 'nginx' }, { image: 'ngnix' }, { image: 'nope' }])).toBe('ngnix');
    expect(unpullableImage([{ image: 'nginx' }])).toBeUndefined();
  });
});
