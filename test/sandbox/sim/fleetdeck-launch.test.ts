import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inClusterConfig } from '../../../src/kube/config/in-cluster.js';
import type { PodHandle } from '../../../src/sandbox/sim/container.js';
import { FleetdeckLauncher, fleetdeckArgv, kubernetesServiceEnv } from '../../../src/sandbox/sim/fleetdeck-launch.js';

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

describe('without mount namespaces, the in-cluster loader finds the service account under FLEETDECK_SERVICEACCOUNT_ROOT', () => {
  it('lays the volumes out under the pod directory and names that prefix; the loader reads server, namespace and files from it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fdlaunch-'));
    try {
      const vol = path.join(dir, 'pod', 'volumes', 'runner-token-abcde');
      fs.mkdirSync(vol, { recursive: true });
      for (const [f, v] of Object.entries({ token: 'not-a-real-token', 'ca.crt': 'CA', namespace: 'team-a' }))
        fs.writeFileSync(path.join(vol, f), v);
      const cli = path.join(dir, 'cli.js');
      fs.writeFileSync(cli, '');
      const pod = {
        ip: '127.4.1.7',
        dir: path.join(dir, 'pod'),
        deps: {
          runtime: { dir },
          network: { mountNamespaces: () => false },
          core: {
            readNamespacedEndpoints: async () => ({
              subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: 40123 }] }],
            }),
          },
        },
      } as unknown as PodHandle;
      const launcher = new FleetdeckLauncher(
        pod,
        { name: 'fleetdeck', image: 'ghcr.io/fleetdeck/fleetdeck:test', args: ['--version', '--metrics-listen', '0.0.0.0:9464'] },
        cli,
      );
      const launch = await launcher.launch({
        env: { POD_NAME: 'p' },
        expand: (s) => s,
        mounts: [{ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', hostPath: vol, readOnly: true }],
      });
      expect(launch.file).toBe(process.execPath);
      // A wildcard listen address is the pod's own: two runner pods never fight over a port.
      expect(launch.argv).toEqual([path.join(dir, 'bin', 'fleetdeck.js'), '--version', '--metrics-listen', '127.4.1.7:9464']);
      expect(fs.realpathSync(launch.argv[0]!)).toBe(fs.realpathSync(cli));
      expect(launch.env.POD_NAME).toBe('p');
      expect(launch.env.FLEETDECK_SERVICEACCOUNT_ROOT).toBe(path.join(dir, 'pod', 'root', 'fleetdeck'));
      const config = inClusterConfig(launch.env);
      expect(config?.cluster.server).toBe('https://127.0.0.1:40123');
      expect(config?.namespace).toBe('team-a');
      expect(fs.readFileSync(config?.cluster.caFile ?? '', 'utf8')).toBe('CA');
      expect(fs.existsSync(config?.user.tokenFile ?? '')).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
