/**
 * examples/policies.yaml, which the README's first steps apply: every document a Kubernetes
 * object, and its SchedulePolicy, checked with fleetdeck's own `policy check` as if applied to a
 * control plane with two Ready clusters, catches the example's Deployment and divides it over both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { ApiObject } from '../../src/kube/api/api-resources.js';
import { checkPolicy, policyFromText } from '../../src/placement/policy-check.js';
import { withFileObjects } from '../../src/placement/policy-file.js';
import { placementRead } from '../helpers/screens/workloads.js';

const FILE = path.join(import.meta.dirname, '..', '..', 'examples', 'policies.yaml');
const text = fs.readFileSync(FILE, 'utf8');
const objects = parseAllDocuments(text).map((d) => {
  expect(d.errors).toEqual([]);
  return d.toJS() as ApiObject;
});

describe('examples/policies.yaml', () => {
  it('holds a namespace, one SchedulePolicy and a Deployment', () => {
    expect(objects.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'v1 Namespace /team-a',
      'policy.elotl.co/v1alpha1 SchedulePolicy /team-a-spread',
      'apps/v1 Deployment team-a/web',
    ]);
  });

  it('its policy catches the Deployment and divides its 4 replicas over both clusters', () => {
    // As `fleetdeck policy check examples/policies.yaml` reads it: the file's objects as if applied.
    const { read, fromFile } = withFileObjects(placementRead(), text);
    expect(fromFile).toEqual(['Deployment/team-a/web']);
    const check = checkPolicy(read, policyFromText(text, FILE));
    expect(check.catches).toEqual([{ ref: 'Deployment/team-a/web', usedPolicy: 'team-a-spread', overlaps: [] }]);
    expect(check.clusters).toEqual([
      { name: 'w1', ready: true },
      { name: 'w2', ready: true },
    ]);
    expect(check.units).toEqual([
      {
        members: ['Deployment/team-a/web'],
        group: null,
        targets: [
          { cluster: 'w1', replicas: { 'Deployment/team-a/web': 2 } },
          { cluster: 'w2', replicas: { 'Deployment/team-a/web': 2 } },
        ],
        pending: null,
      },
    ]);
  });
});
