import { SimulatedKubelet } from './kubelet.js';
import { LoadBalancerController } from './loadbalancer.js';
import { ClusterNetwork } from './network.js';
import { StorageProvisioner } from './provisioner.js';
import { SimulatedStorage } from './storage-objects.js';
import type { SimContext } from './context.js';
import type { PodNetwork } from './pods.js';

export { HostnameDirectory, type SimContext, type SandboxRuntime } from './context.js';
export { ClusterNetwork } from './network.js';
export { SimulatedKubelet, type SimulatedKubeletOptions } from './kubelet.js';
export { SANDBOX_NODE_ANNOTATION, SANDBOX_ZONES, NOT_READY_TAINT } from './node-status.js';
export { LoadBalancerController, LB_HOSTNAME_ANNOTATION, LB_HOSTNAME_SUFFIX } from './loadbalancer.js';
export type { PodNetwork } from './pods.js';
export { type Fault, FAULT_ANNOTATION } from './pod-status.js';
export { StorageProvisioner, SANDBOX_PROVISIONER, DEFAULT_STORAGE_CLASS } from './provisioner.js';
export { REPLACE_WHEN_DRAINED_ANNOTATION, REPLACE_SETTLE_MS } from './replacer.js';
export { SimulatedStorage, ensureSimulatedStorage, storageProfile } from './storage-objects.js';

export interface Simulators {
  kubelet: SimulatedKubelet;
  lb: LoadBalancerController;
  storage: StorageProvisioner;
  /** OpenEBS's LVMNodes and BlockDevices of every node (see storage-objects.ts). */
  storageObjects: SimulatedStorage;
  /** Only with the context's runtime: addresses, names and forwarding of pods that run for real. */
  network?: ClusterNetwork;
  stop(): Promise<void>;
}

/**
 * Starts the simulated kubelet (with its node replacer: see REPLACE_WHEN_DRAINED_ANNOTATION;
 * `replaceDrained` annotates every node it registers), load-balancer controller and storage
 * provisioner of one cluster; resolves when every node is Ready and untainted (throws, after stopping them all,
 * if that takes longer than `readyTimeoutMs`) and has its OpenEBS LVMNode and BlockDevices.
 */
export async function startSimulators(
  ctx: SimContext,
  opts: { nodes?: number; podNetwork?: PodNetwork; readyTimeoutMs?: number; replaceDrained?: boolean } = {},
): Promise<Simulators> {
  const network = ctx.runtime ? new ClusterNetwork(ctx, ctx.runtime) : undefined;
  const kubelet = new SimulatedKubelet(ctx, {
    nodes: opts.nodes ?? 6,
    podNetwork: opts.podNetwork ?? 'cluster',
    network,
    replaceDrained: opts.replaceDrained ?? false,
  });
  const lb = new LoadBalancerController(ctx, network);
  const storage = new StorageProvisioner(ctx);
  const storageObjects = new SimulatedStorage(ctx);
  const stop = async () => {
    await Promise.all([kubelet.stop(), lb.stop(), storage.stop(), storageObjects.stop()]);
    await network?.close();
  };
  try {
    await Promise.all([kubelet.start(), lb.start(), storage.start()]);
    await kubelet.waitReady(opts.readyTimeoutMs ?? 60_000);
    await storageObjects.start();
  } catch (err) {
    await stop();
    throw err;
  }
  return { kubelet, lb, storage, storageObjects, network, stop };
}
