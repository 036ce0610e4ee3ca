import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseTarget } from '../../src/logs/target.js';

describe('parseTarget', () => {
  it('takes kubectl’s names for pods, with or without pod/', () => {
    expect(parseTarget('web-1')).toEqual({ kind: 'pod', name: 'web-1' });
    for (const t of ['pod/web-1', 'pods/web-1', 'po/web-1', 'Pod/web-1']) expect(parseTarget(t)).toEqual({ kind: 'pod', name: 'web-1' });
  });

  it('takes workloads by full, plural, short and grouped names', () => {
    for (const t of ['deployment/web', 'deployments/web', 'deploy/web', 'deployment.apps/web']) {
      expect(parseTarget(t)).toEqual({ kind: 'deployment', name: 'web' });
    }
    for (const t of ['statefulset/db', 'statefulsets/db', 'sts/db']) expect(parseTarget(t)).toEqual({ kind: 'statefulset', name: 'db' });
    for (const t of ['daemonset/agent', 'daemonsets/agent', 'ds/agent'])
      expect(parseTarget(t)).toEqual({ kind: 'daemonset', name: 'agent' });
  });

  it('refuses kinds it cannot read, names that are empty or invalid, as usage errors', () => {
    expect(() => parseTarget('service/web')).toThrow(UsageError);
    expect(() => parseTarget('service/web')).toThrow(/cannot read logs of "service".*pod\/NAME/);
    expect(() => parseTarget('deployment.batch/web')).toThrow(/cannot read logs/);
    expect(() => parseTarget('deploy/')).toThrow(/names no deployment/);
    expect(() => parseTarget('Web_1')).toThrow(/"Web_1" is not a valid pod name/);
    expect(() => parseTarget('pod/a/b')).toThrow(/not a valid pod name/);
  });
});
