import { describe, expect, it } from 'vitest';
import { applyOverrides, overriddenPaths } from '../../src/placement/overrides.js';
import { policy } from './fixtures.js';

const p = policy('spread', {
  spreadConstraints: {
    spreadMode: 'Duplicate',
    topologyKey: 'kubernetes.io/metadata.name',
    overrides: [
      {
        topologyValue: 'w2',
        parameters: [
          { fieldPath: 'spec.template.spec.containers.0.image', value: { staticValue: 'nginx:eu' } },
          { fieldPath: 'metadata.labels.region', value: { staticValue: 'eu' } },
        ],
      },
    ],
  },
});

describe('a spread’s overrides', () => {
  it('set each field path on the copy of their topology value only, making the path when missing', () => {
    const obj = () => ({ metadata: { name: 'web' }, spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx' }] } } } });
    expect(applyOverrides(obj(), p, 'w2')).toEqual({
      metadata: { name: 'web', labels: { region: 'eu' } },
      spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:eu' }] } } },
    });
    expect(applyOverrides(obj(), p, 'w1')).toEqual(obj());
    expect(applyOverrides(obj(), undefined, 'w2')).toEqual(obj());
    expect(overriddenPaths(p, 'w2')).toEqual(['spec.template.spec.containers.0.image', 'metadata.labels.region']);
  });
});
