import { describe, expect, it } from 'vitest';
import { fleetdeckArgv, kubernetesServiceEnv } from '../../../src/sandbox/sim/fleetdeck-launch.js';

describe('the fleetdeck image as the local bundle', () => {
  it('takes the image entrypoint, `fleetdeck …` or `node …/cli.js …` as the bundle, then the args', () => {
    expect(fleetdeckArgv(undefined, ['rollout', 'resume', 'r1'])).toEqual(['rollout', 'resume', 'r1']);
    expect(fleetdeckArgv([], ['--version'])).toEqual(['--version']);
    expect(fleetdeckArgv(['fleetdeck', 'rollout'], ['resume', 'r1'])).toEqual(['rollout', 'resume', 'r1']);
    expect(fleetdeckArgv(['/usr/local/bin/fleetdeck'], undefined)).toEqual([]);
    expect(fleetdeckArgv(['node', '/app/dist/cli.js', 'status'], ['--watch'])).toEqual(['status', '--watch']);
  });

  it('refuses any other command', () => {
    expect(fleetdeckArgv(['sh', '-c', 'fleetdeck --version'], undefined)).toBeUndefined();
    expect(fleetdeckArgv(['node', 'other.js'], undefined)).toBeUndefined();
  });

  it('points the kubernetes Service variables at the API server, as a kubelet does', () => {
    expect(kubernetesServiceEnv('127.0.0.1', 40123)).toEqual({
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: '40123',
      KUBERNETES_SERVICE_PORT_HTTPS: '40123',
      KUBERNETES_PORT: 'tcp://127.0.0.1:40123',
      KUBERNETES_PORT_40123_TCP: 'tcp://127.0.0.1:40123',
      KUBERNETES_PORT_40123_TCP_PROTO: 'tcp',
      KUBERNETES_PORT_40123_TCP_PORT: '40123',
      KUBERNETES_PORT_40123_TCP_ADDR: '127.0.0.1',
    });
  });
});
