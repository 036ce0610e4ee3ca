import { describe, expect, it } from 'vitest';
import {
  checkBrNetfilter,
  checkCpus,
  checkHostname,
  checkIpForward,
  checkMemory,
  checkOs,
  checkPreviousInstall,
  checkResolvRotate,
  checkService,
  checkSwap,
  nodeNameProblem,
} from '../../src/preflight/check-host.js';

describe('host checks (pure)', () => {
  it('OS', () => {
    expect(checkOs({ id: 'debian', versionId: '12', prettyName: 'Debian 12' })).toMatchObject({ state: 'ok', detail: 'Debian 12' });
    expect(checkOs({ id: 'centos', versionId: '7', prettyName: 'CentOS Linux 7' })).toMatchObject({
      state: 'fail',
      detail: 'CentOS Linux 7 is not supported',
    });
    expect(checkOs({ unknown: 'no /etc/os-release' }).state).toBe('fail');
  });
  it('previous install', () => {
    expect(checkPreviousInstall({ found: [], empty: ['/var/lib/etcd'] })).toMatchObject({
      state: 'ok',
      detail: 'none found (empty /var/lib/etcd ignored)',
    });
    expect(checkPreviousInstall({ found: ['/etc/kubernetes'] })).toMatchObject({ state: 'fail', detail: 'found /etc/kubernetes' });
  });
  it('hostname: RFC 1123 subdomain, lower case, ≤ 253', () => {
    expect(nodeNameProblem('node-1.example.com')).toBeUndefined();
    expect(nodeNameProblem('Node1')).toBe('it has upper-case letters');
    expect(nodeNameProblem('node_1')).toMatch(/characters other than/);
    expect(nodeNameProblem('-node')).toMatch(/must start and end/);
    expect(nodeNameProblem('a..b')).toMatch(/empty label/);
    expect(nodeNameProblem(`${'a'.repeat(64)}.b`)).toMatch(/longer than 63/);
    expect(nodeNameProblem(Array(60).fill('abcd').join('.'))).toMatch(/at most 253/);
    expect(nodeNameProblem('')).toBe('it is empty');
    expect(checkHostname({ name: 'n1', source: 'x' }).state).toBe('ok');
    expect(checkHostname({ name: 'N1', source: '/etc/hostname' })).toMatchObject({
      state: 'fail',
      detail: '"N1" (/etc/hostname): it has upper-case letters',
    });
  });
  it('firewalld (warn) and fapolicyd (fail) when active; info when unknown', () => {
    expect(checkService('firewalld', { state: 'inactive', source: 'systemctl is-active' }).state).toBe('ok');
    expect(checkService('firewalld', { state: 'active', source: 'systemctl is-active' }).state).toBe('warn');
    expect(checkService('fapolicyd', { state: 'enabled', source: 'links' }).state).toBe('fail');
    expect(checkService('fapolicyd', { unknown: 'systemctl is not available' })).toMatchObject({
      state: 'info',
      detail: 'not checked: systemctl is not available',
    });
  });
  it('resolv.conf rotate', () => {
    expect(checkResolvRotate({ text: 'options edns0\n# options rotate\n', path: '/etc/resolv.conf' }).state).toBe('ok');
    expect(checkResolvRotate({ text: 'options  ndots:2 rotate\n', path: 'r' })).toMatchObject({
      state: 'fail',
      detail: 'r: "options  ndots:2 rotate"',
    });
    expect(checkResolvRotate({ text: 'search rotate.example\n', path: 'r' }).state).toBe('ok');
  });
  it('swap, CPUs, memory against minimums, br_netfilter, ip_forward', () => {
    expect(checkSwap({ active: [] }).state).toBe('ok');
    expect(checkSwap({ active: ['/swap.img'] })).toMatchObject({ state: 'warn', detail: 'on: /swap.img' });
    expect(checkCpus(2, 2).state).toBe('ok');
    expect(checkCpus(1, 2).state).toBe('fail');
    expect(checkCpus(1, 1).state).toBe('ok');
    expect(checkMemory(1.5e9, 2)).toMatchObject({ state: 'fail', detail: '1.5 GB' });
    expect(checkMemory(1.5e9, 1).state).toBe('ok');
    expect(checkBrNetfilter({ loaded: true, source: 'm' }).state).toBe('ok');
    expect(checkBrNetfilter({ loaded: false, source: 'm' }).state).toBe('fail');
    expect(checkIpForward({ value: '1', path: 'p' }).state).toBe('ok');
    expect(checkIpForward({ value: '0', path: 'p' }).state).toBe('fail');
  });
});
