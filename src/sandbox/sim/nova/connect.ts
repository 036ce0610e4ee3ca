/**
 * How the sandbox's in-process Nova components reach the control plane: the kubeconfig their
 * `--kubeconfig` argument names (materialized from its Secret volume), with the names of the
 * cluster's hosts file (Service names, the sandbox's load-balancer hostnames) resolvable.
 */
import dns from 'node:dns';
import fs from 'node:fs';
import type net from 'node:net';
import { type V1Container, KubeConfig } from '@kubernetes/client-node';
import type { PodHandle } from '../container.js';
import { flagValue } from '../processes.js';

/** A lookup that answers the names the cluster's hosts file has (Service names, load-balancer hostnames) before asking the resolver. */
export function sandboxLookup(resolve: (hostname: string) => string | undefined): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    const ip = resolve(hostname);
    if (!ip) return dns.lookup(hostname, options, callback as never);
    if (options?.all) callback(null, [{ address: ip, family: 4 }]);
    else callback(null, ip, 4);
  }) as unknown as net.LookupFunction;
}

/** A KubeConfig from `text`, with the names `resolve` knows resolvable. */
export function sandboxKubeConfig(text: string, resolve: (hostname: string) => string | undefined): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  if (!kc.getCurrentCluster()) throw new Error('the kubeconfig has no current cluster');
  const lookup = sandboxLookup(resolve);
  const k = kc as unknown as { createDispatcherOptions: (c: unknown, a: unknown) => { type: string; connect?: Record<string, unknown> } };
  const original = k.createDispatcherOptions.bind(kc);
  k.createDispatcherOptions = (c, a) => {
    const opts = original(c, a);
    if (opts.type === 'agent' && opts.connect) opts.connect = { ...opts.connect, lookup };
    return opts;
  };
  return kc;
}

/** The container's arguments (variables expanded) and the KubeConfig its `--kubeconfig` names. */
export async function flagKubeConfig(pod: PodHandle, spec: V1Container): Promise<{ argv: string[]; kc: KubeConfig; server: string }> {
  const { expand } = await pod.prepare(spec);
  const argv = [...(spec.command ?? []).slice(1), ...(spec.args ?? [])].map(expand);
  const file = flagValue(argv, 'kubeconfig');
  if (!file) throw new Error('no --kubeconfig argument');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new Error(`cannot read the kubeconfig ${file}`);
  }
  const kc = sandboxKubeConfig(text, (h) => pod.deps.network.lookup(h));
  return { argv, kc, server: kc.getCurrentCluster()?.server ?? '' };
}
