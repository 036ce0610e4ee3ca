import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUNDLE_DIR, loadBundle } from '../../src/install/bundle.js';
import { bundleLines, isReferenceBundle, REFERENCE_NAME, referenceWarning, summarizeBundle } from '../../src/install/bundle-summary.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-bundle-summary-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('summarizeBundle', () => {
  it('says the built-in bundle is the reference one and lists its images', async () => {
    const s = summarizeBundle(await loadBundle());
    expect(s).toEqual({
      name: REFERENCE_NAME,
      source: 'built-in',
      reference: true,
      images: [
        'registry.k8s.io/etcd:3.5.9-0',
        'registry.k8s.io/kube-apiserver:v1.28.4',
        'registry.k8s.io/kube-controller-manager:v1.28.4',
        'registry.k8s.io/kube-scheduler:v1.28.4',
        'elotl/nova-agent:v0.7.0',
      ],
    });
    const lines = bundleLines(s);
    expect(lines[0]).toBe('Bundle: fleetdeck reference bundle (built-in)');
    expect(lines[1]).toContain('not a Nova release');
    expect(lines[1]).toContain('stand-in for nova-scheduler');
    expect(lines[1]).toContain('agent image elotl/nova-agent:v0.7.0');
    expect(lines.slice(2)).toEqual([
      'Images: registry.k8s.io/etcd:3.5.9-0',
      '        registry.k8s.io/kube-apiserver:v1.28.4',
      '        registry.k8s.io/kube-controller-manager:v1.28.4',
      '        registry.k8s.io/kube-scheduler:v1.28.4',
      '        elotl/nova-agent:v0.7.0',
    ]);
  });

  it('names a copy by its directory (a release by the folder holding install/) and gives its path as the source', async () => {
    const copy = path.join(tmp, 'nova-v0.8.0', 'install');
    fs.cpSync(DEFAULT_BUNDLE_DIR, copy, { recursive: true });
    const agent = path.join(copy, 'base', 'agent', 'nova_agent.yaml');
    fs.writeFileSync(agent, fs.readFileSync(agent, 'utf8').replace('elotl/nova-agent:v0.7.0', 'example.com/nova/nova-agent:v0.8.0'));
    expect(isReferenceBundle(copy)).toBe(false);
    for (const dir of [copy, path.dirname(copy)]) {
      const s = summarizeBundle(await loadBundle(dir));
      expect(s).toMatchObject({ name: 'nova-v0.8.0/install', source: copy, reference: false });
      expect(s.images.at(-1)).toBe('example.com/nova/nova-agent:v0.8.0');
      expect(bundleLines(s)[0]).toBe(`Bundle: nova-v0.8.0/install (${copy})`);
      expect(bundleLines(s)[1]).toBe('Images: registry.k8s.io/etcd:3.5.9-0');
      // The copy's overlays (patches) were rendered with kubectl kustomize, and the plan says so
      expect(bundleLines(s)).toContain('Overlays: overlays/cp-ha: resources, patches');
    }
  }, 60_000);

  it('recognises the built-in bundle through a symbolic link', () => {
    const link = path.join(tmp, 'link');
    fs.symlinkSync(DEFAULT_BUNDLE_DIR, link);
    expect(isReferenceBundle(link)).toBe(true);
  });
});

describe('referenceWarning', () => {
  it('names the clusters and points at --bundle', () => {
    expect(referenceWarning(['prod'])).toBe(
      "the reference bundle would be installed on prod, which is not the fleetdeck sandbox: for a Nova release, pass --bundle DIR with the release's install/ directory",
    );
    expect(referenceWarning(['a', 'b'])).toContain('on a, b, which are not');
  });
});
