import { describe, expect, it } from 'vitest';
import { nextRecord, recordObject } from '../../src/install/bundle-record.js';
import { type RenderedBundle, renderBundle, sameObjects } from '../../src/install/bundle-render.js';
import { loadBundle } from '../../src/install/bundle.js';

const rendering = (tag: string): RenderedBundle => ({
  source: `/b/${tag}`,
  ha: false,
  topologyKey: 'topology.kubernetes.io/zone',
  controlPlane: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'ns' }, data: { tag } }],
  crds: [],
  agents: {},
});

describe('nextRecord', () => {
  const at = new Date('2026-01-02T03:04:05Z');
  it('moves the current bundle to previous when another is applied', () => {
    const first = nextRecord({}, rendering('a'), at);
    expect(first.previous).toBeUndefined();
    const second = nextRecord(first, rendering('b'), at);
    expect(second.current?.source).toBe('/b/b');
    expect(second.previous?.source).toBe('/b/a');
  });

  it('keeps the record as it is when the same objects are applied again (a re-run after an interruption)', () => {
    const record = nextRecord(nextRecord({}, rendering('a'), at), rendering('b'), at);
    expect(nextRecord(record, { ...rendering('b'), source: '/elsewhere' }, new Date())).toBe(record);
  });
});

describe('recordObject', () => {
  it('is a ConfigMap with the renderings gzipped in binaryData and a readable line each', () => {
    const cm = recordObject('ns', nextRecord(nextRecord({}, rendering('a'), new Date(0)), rendering('b'), new Date(0)));
    expect(cm.kind).toBe('ConfigMap');
    expect(cm.metadata).toMatchObject({ name: 'fleetdeck-bundle', namespace: 'ns' });
    expect(Object.keys(cm.binaryData as object)).toEqual(['current.json.gz', 'previous.json.gz']);
    expect((cm.data as Record<string, string>).previous).toBe('/b/a (recorded 1970-01-01T00:00:00.000Z)');
  });
});

describe('renderBundle', () => {
  it('renders the agent per cluster and the control plane into the namespace, as the install applies them', async () => {
    const bundle = await loadBundle();
    const r = renderBundle(bundle, { namespace: 'nova', ha: false, topologyKey: 'k', clusters: ['c1', 'c2'] });
    expect(Object.keys(r.agents)).toEqual(['c1', 'c2']);
    expect(JSON.stringify(r.agents.c1)).toContain('c1');
    expect(r.controlPlane.every((o) => o.metadata.namespace === 'nova' || o.kind.startsWith('Cluster'))).toBe(true);
    expect(sameObjects(r, renderBundle(bundle, { namespace: 'nova', ha: false, topologyKey: 'k', clusters: ['c1', 'c2'] }))).toBe(true);
    expect(sameObjects(r, renderBundle(bundle, { namespace: 'nova', ha: true, topologyKey: 'k', clusters: ['c1', 'c2'] }))).toBe(false);
  }, 60_000);
});
