import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  catalogueVolumes,
  DEFAULT_CATALOGUE_FILE,
  EXAMPLE_CATALOGUE_FILE,
  loadCatalogue,
  parseCatalogue,
} from '../../src/storage/catalogue.js';
import { UsageError } from '../../src/errors.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-catalogue-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const valid = `name: mine
features:
  - name: app
    label: App
    default: true
    components:
      - name: db
        volumes:
          - name: db-data
            label: Database
            kind: unshared
            defaultGB: 10
`;

describe('the shipped catalogues', () => {
  it('default: the control plane’s etcd data, node-local', () => {
    const c = loadCatalogue();
    expect(c.file).toBe(DEFAULT_CATALOGUE_FILE);
    expect(c.name).toBe('nova-control-plane');
    expect(c.features.map((f) => [f.label, f.default])).toEqual([['Nova control plane', true]]);
    expect(catalogueVolumes(c)).toEqual([
      { name: 'etcd-data', label: 'etcd data', kind: 'unshared', defaultGB: 8, feature: 'nova-control-plane', component: 'etcd' },
    ]);
  });

  it('the example: the features and volumes of the seed’s dialogues', () => {
    const c = loadCatalogue(EXAMPLE_CATALOGUE_FILE);
    expect(c.features.map((f) => [f.label, f.default])).toEqual([
      ['KloudManage', false],
      ['KloudInsights', true],
      ['Kloudhybrid', false],
    ]);
    const byFeature = (name: string) =>
      catalogueVolumes(c)
        .filter((v) => v.feature === name)
        .map((v) => [v.label, v.kind, v.defaultGB]);
    expect(byFeature('kloudinsights')).toEqual([
      ['Stream processing elasticsearch', 'shared', 10],
      ['Stream processing state storage', 'shared', 10],
      ['Kloudinsights database', 'unshared', 10],
      ['Kafka distributed messaging', 'unshared', 2],
      ['Zookeeper coordinator', 'unshared', 2],
    ]);
    expect(byFeature('kloudhybrid')).toEqual([
      ['Stream processing elasticsearch', 'unshared', 10],
      ['Kloudinsights database', 'unshared', 10],
    ]);
  });
});

describe('catalogue errors: one line with the file and the line', () => {
  it('a valid file reads; label defaults to the name, the catalogue name to the file name', () => {
    const c = parseCatalogue(valid.replace('name: mine\n', ''), '/x/my-stack.yaml');
    expect(c.name).toBe('my-stack');
    expect(c.features[0]!.components[0]).toEqual({
      name: 'db',
      label: 'db',
      volumes: [{ name: 'db-data', label: 'Database', kind: 'unshared', defaultGB: 10 }],
    });
  });

  it.each([
    ['not YAML', valid.replace('    label: App', '    label: [App'), /^c\.yaml line \d+: not valid YAML \(/],
    [
      'a duplicate key',
      valid.replace('    label: App', '    label: App\n    label: Again'),
      /^c\.yaml line 5: not valid YAML \(Map keys must be unique\)$/,
    ],
    ['empty', '', /^c\.yaml line 1: the catalogue is empty/],
    ['a list at the top', '- a\n', /^c\.yaml line 1: the catalogue must be a mapping/],
    [
      'an unknown top field',
      `${valid}volumes: []\n`,
      /^c\.yaml line 13: the catalogue has an unknown field "volumes" \(known: name, description, features\)$/,
    ],
    [
      'an unknown volume field',
      valid.replace('            defaultGB: 10', '            defaultGB: 10\n            sise: 3'),
      /^c\.yaml line 13: a volume of component "db" has an unknown field "sise" \(known: name, label, kind, defaultGB\)$/,
    ],
    [
      'a feature without a name',
      valid.replace('  - name: app\n    label: App', '  - label: App'),
      /^c\.yaml line 3: a feature has no name$/,
    ],
    [
      'a volume without a name',
      valid.replace('          - name: db-data\n            label: Database', '          - label: Database'),
      /^c\.yaml line 9: a volume of component "db" has no name$/,
    ],
    ['a name with a comma', valid.replace('name: db-data', 'name: "db,data"'), /^c\.yaml line 9: "db,data" is not a valid name/],
    ['no features', 'name: x\nfeatures: []\n', /^c\.yaml line 2: "features" must be a non-empty list$/],
    [
      'no volumes',
      valid.replace(/ {8}volumes:[\s\S]*$/, '        volumes:\n'),
      /^c\.yaml line 8: "volumes" of component "db" must be a non-empty list$/,
    ],
    [
      'a bad kind',
      valid.replace('kind: unshared', 'kind: replicated'),
      /^c\.yaml line 11: the kind of volume "db-data" must be shared or unshared \(got "replicated"\)$/,
    ],
    ['no kind', valid.replace('            kind: unshared\n', ''), /^c\.yaml line 9: volume "db-data" has no kind/],
    [
      'a zero size',
      valid.replace('defaultGB: 10', 'defaultGB: 0'),
      /^c\.yaml line 12: defaultGB of volume "db-data" must be a number of GB greater than 0 \(got 0\)$/,
    ],
    [
      'a negative size',
      valid.replace('defaultGB: 10', 'defaultGB: -5'),
      /^c\.yaml line 12: defaultGB of volume "db-data" must be .* \(got -5\)$/,
    ],
    ['a size as text', valid.replace('defaultGB: 10', 'defaultGB: 10GB'), /^c\.yaml line 12: defaultGB .* \(got "10GB"\)$/],
    ['no size', valid.replace('            defaultGB: 10\n', ''), /^c\.yaml line 9: volume "db-data" has no defaultGB/],
    [
      'a default not boolean',
      valid.replace('default: true', 'default: yes please'),
      /^c\.yaml line 5: "default" of feature "app" must be true or false$/,
    ],
    [
      'a duplicate volume name in another feature',
      valid +
        '  - name: other\n    components:\n      - name: x\n        volumes:\n          - name: db-data\n            kind: shared\n            defaultGB: 1\n',
      /^c\.yaml line 17: volume "db-data" is defined twice \(first on line 9\); volume names are unique in a catalogue$/,
    ],
    ['a duplicate feature', valid + valid.split('features:\n')[1], /^c\.yaml line 13: feature "app" is defined twice$/],
  ])('%s', (_what, text, pattern) => {
    let err: unknown;
    try {
      parseCatalogue(text, 'c.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    const message = (err as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(pattern);
  });

  it('a missing file or a directory', () => {
    expect(() => loadCatalogue(path.join(tmp, 'nope.yaml'))).toThrow(
      new UsageError(`catalogue ${path.join(tmp, 'nope.yaml')} does not exist`),
    );
    expect(() => loadCatalogue(tmp)).toThrow(/is a directory/);
  });
});
