import { describe, expect, it } from 'vitest';
import { changeText, fieldChanges } from '../../src/backup/changes.js';

describe('the fields an update changes', () => {
  it('names each changed, added and removed field with its values, in paths an operator reads', () => {
    const live = {
      metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'web', old: 'x' } },
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } } },
    };
    const applied = {
      metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'shop' } },
      spec: { replicas: 2, paused: true, template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
    };
    const changes = fieldChanges('Deployment', live, applied);
    expect(changes.map(changeText).sort()).toEqual(
      [
        'metadata.labels["app.kubernetes.io/name"]: "web" → "shop"',
        'metadata.labels.old: removed (was "x")',
        'spec.replicas: 3 → 2',
        'spec.paused: added true',
        'spec.template.spec.containers[0].image: "nginx:1.25" → "nginx:1.27"',
      ].sort(),
    );
  });

  it("never shows a Secret's data, only that it changes", () => {
    const applied = (pw: string) => ({
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': `{"data":{"password":"${pw}"}}` } },
    });
    const changes = fieldChanges(
      'Secret',
      { ...applied('b2xk'), data: { password: 'b2xk' }, type: 'Opaque' },
      { ...applied('bmV3'), data: { password: 'bmV3' }, type: 'Opaque' },
    );
    expect(changes).toEqual([
      { path: 'metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]', from: '(hidden)', to: '(hidden)' },
      { path: 'data.password', from: '(hidden)', to: '(hidden)' },
    ]);
    expect(JSON.stringify(changes)).not.toMatch(/b2xk|bmV3/);
  });

  it('cuts a long value', () => {
    const [c] = fieldChanges('ConfigMap', { data: { a: 'x' } }, { data: { a: 'y'.repeat(200) } });
    expect(c?.to?.length).toBe(60);
    expect(c?.to?.endsWith('…')).toBe(true);
  });
});
