import { describe, expect, it } from 'vitest';
import { oneShot } from '../src/node-flags.js';

describe('oneShot: which runs skip the restart with V8 flags', () => {
  it('takes status without --watch, --version and --help as one-shot', () => {
    expect(oneShot(['status', '-o', 'json'])).toBe(true);
    expect(oneShot(['--kubeconfig', 'status', 'status'])).toBe(true);
    expect(oneShot(['--context', 'a', '-o', 'json', '--request-timeout=5s', 'status'])).toBe(true);
    expect(oneShot(['--version'])).toBe(true);
    expect(oneShot(['rollout', '--help'])).toBe(true);
  });

  it('keeps the restart for the dashboard, status --watch and other commands', () => {
    expect(oneShot([])).toBe(false);
    expect(oneShot(['--context', 'status'])).toBe(false);
    expect(oneShot(['status', '--watch'])).toBe(false);
    expect(oneShot(['status', '-w'])).toBe(false);
    expect(oneShot(['rollout', 'create', '--node', 'status'])).toBe(false);
    expect(oneShot(['logs', '-f', 'pod'])).toBe(false);
  });
});
