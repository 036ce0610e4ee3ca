import fs from 'node:fs';
import path from 'node:path';
import type { V1Container } from '@kubernetes/client-node';
import { CLI_PATH } from '../../paths.js';
import { sandboxLink } from './binary-launch.js';
import type { PodHandle } from './container.js';
import { linkedRoot, type BindMount } from './mount-namespace.js';
import type { Launch, Launcher, Prepared } from './process-container.js';
import { rewriteListenArgs } from './processes.js';

/** Set, instead of mounts, when processes cannot have their own mount namespace: a path prefix for the service account's files. */
export const SERVICEACCOUNT_ROOT_ENV = 'FLEETDECK_SERVICEACCOUNT_ROOT';

/** The variables a kubelet gives every container for the `default/kubernetes` Service, here its real address. */
export function kubernetesServiceEnv(host: string, port: number): Record<string, string> {
  const url = `tcp://${host}:${port}`;
  const p = `KUBERNETES_PORT_${port}_TCP`;
  return {
    KUBERNETES_SERVICE_HOST: host,
    KUBERNETES_SERVICE_PORT: String(port),
    KUBERNETES_SERVICE_PORT_HTTPS: String(port),
    KUBERNETES_PORT: url,
    [p]: url,
    [`${p}_PROTO`]: 'tcp',
    [`${p}_PORT`]: String(port),
    [`${p}_ADDR`]: host,
  };
}

/**
 * The arguments for the bundle: a command that is absent (the image's entrypoint),
 * `fleetdeck …`, or the entrypoint spelled out (`node /app/dist/cli.js …`), then the args.
 * Undefined for any other command: the image has nothing else to run.
 */
export function fleetdeckArgv(command: readonly string[] | undefined, args: readonly string[] | undefined): string[] | undefined {
  const cmd = command ?? [];
  let rest: readonly string[] | undefined;
  if (cmd.length === 0) rest = [];
  else if (path.posix.basename(cmd[0]!) === 'fleetdeck') rest = cmd.slice(1);
  else if (path.posix.basename(cmd[0]!) === 'node' && /(^|\/)cli\.js$/.test(cmd[1] ?? '')) rest = cmd.slice(2);
  return rest && [...rest, ...(args ?? [])];
}

/**
 * The fleetdeck image (any registry and tag), run as the local bundle: this Node.js with the
 * sandbox's own dist/cli.js (through a link under the sandbox directory) and the container's args. Its environment is the pod's plus the
 * `KUBERNETES_SERVICE_*` variables pointing at the cluster's API server (the endpoints of
 * `default/kubernetes`), so in-cluster configuration works unchanged; a wildcard listen flag points at
 * the pod's address (as binary-launch.ts does); its volumes (the service
 * account's token Secret among them) are bind-mounted at their mount paths, or, without mount
 * namespaces, linked under a directory named by FLEETDECK_SERVICEACCOUNT_ROOT. Ready once running.
 */
export class FleetdeckLauncher implements Launcher {
  readonly kind = 'fleetdeck';

  constructor(
    private readonly pod: PodHandle,
    private readonly spec: V1Container,
    private readonly cli = CLI_PATH,
  ) {}

  async launch({ env, expand, mounts }: Prepared): Promise<Launch> {
    const argv = fleetdeckArgv(this.spec.command?.map(expand), this.spec.args?.map(expand));
    if (!argv) throw new Error(`the fleetdeck image runs fleetdeck only, not ${JSON.stringify(this.spec.command?.[0] ?? '')}`);
    if (!fs.existsSync(this.cli)) throw new Error(`${this.cli} is missing (npm run build)`);
    const wd = this.spec.workingDir ? expand(this.spec.workingDir) : undefined;
    const cwd = wd?.startsWith(this.pod.deps.runtime.dir) && fs.existsSync(wd) ? wd : this.pod.dir;
    const binds: BindMount[] = mounts.map((m) => ({ source: m.hostPath, target: m.mountPath, readOnly: m.readOnly === true }));
    const { host, port } = await this.apiserver();
    const childEnv: Record<string, string> = { ...kubernetesServiceEnv(host, port), ...env };
    if (!this.pod.deps.network.mountNamespaces()) {
      childEnv[SERVICEACCOUNT_ROOT_ENV] = linkedRoot(path.join(this.pod.dir, 'root', this.spec.name), binds);
    }
    // Through a link under the sandbox directory, so the command line names the sandbox.
    const entry = sandboxLink(this.pod.deps.runtime.dir, 'fleetdeck.js', this.cli);
    // A wildcard listen address (`--metrics-listen 0.0.0.0:9464`) is the pod's own, as in its own network namespace.
    return { file: process.execPath, argv: [entry, ...rewriteListenArgs(argv, this.pod.ip)], cwd, env: childEnv, binds };
  }

  /** The API server's address as the `default/kubernetes` Endpoints give it, else the sandbox's own connection's. */
  private async apiserver(): Promise<{ host: string; port: number }> {
    const ep = await this.pod.deps.core.readNamespacedEndpoints({ name: 'kubernetes', namespace: 'default' }).catch(() => undefined);
    const subset = ep?.subsets?.find((s) => s.addresses?.[0]?.ip && s.ports?.length);
    const port = subset?.ports?.find((p) => p.name === 'https')?.port ?? subset?.ports?.[0]?.port;
    const ip = subset?.addresses?.[0]?.ip;
    if (ip && port) return { host: ip, port };
    const server = new URL(this.pod.deps.ctx.kc.getCurrentCluster()?.server ?? 'https://127.0.0.1:6443');
    return { host: server.hostname.replace(/^\[|\]$/g, ''), port: Number(server.port) || 443 };
  }
}
