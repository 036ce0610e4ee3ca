/**
 * Which certificates a renewal touches (pure): the names `fleetdeck certs` shows, `all`, and
 * where each one lives — its Secret, the component that must restart to load it, the kubeconfigs
 * that embed it.
 */
import { UsageError } from '../../errors.js';
import { CA_SPECS, SERVICE_ACCOUNT_SPEC, type LeafSpec } from '../../install/certs/specs.js';

/** A control-plane component restarted one replica at a time, by the labels the install waits on. */
export interface Component {
  id: string;
  label: string;
  selector: string;
}

export const ETCD: Component = { id: 'etcd', label: 'etcd', selector: 'app=etcd' };
export const APISERVER: Component = { id: 'apiserver', label: 'API server', selector: 'component=apiserver' };
const CONTROLLER_MANAGER: Component = { id: 'controller-manager', label: 'controller-manager', selector: 'component=controller-manager' };
const SCHEDULER: Component = { id: 'nova-scheduler', label: 'nova-scheduler', selector: 'component=nova-scheduler' };

/** The restart order: etcd first, then the API servers, then their clients. */
export const COMPONENT_ORDER: readonly Component[] = [ETCD, APISERVER, CONTROLLER_MANAGER, SCHEDULER];

/** Who loads a leaf: the component restarted for it, or the kubeconfigs that embed it. */
export type Consumer = { component: Component } | { kubeconfigs: 'admin' | 'agent' };

/** The Secret and consumer of a leaf, by its id. */
export function placeOf(id: string): { secret: string; consumer: Consumer } {
  if (/^etcd-\d+-(server|peer)$/.test(id)) return { secret: 'nova-etcd-certs', consumer: { component: ETCD } };
  switch (id) {
    case 'apiserver':
    case 'apiserver-etcd-client':
    case 'front-proxy-client':
      return { secret: 'nova-apiserver-certs', consumer: { component: APISERVER } };
    case 'controller-manager':
      return { secret: 'nova-controller-manager', consumer: { component: CONTROLLER_MANAGER } };
    case 'scheduler':
      return { secret: 'nova-scheduler', consumer: { component: SCHEDULER } };
    case 'admin':
      return { secret: 'nova-admin', consumer: { kubeconfigs: 'admin' } };
    default:
      return { secret: 'nova-agent-bootstrap', consumer: { kubeconfigs: 'agent' } };
  }
}

/** `init-kubeconfig` (the agents' copy, as `fleetdeck certs` lists it) is the agent bootstrap certificate. */
const ALIASES: Readonly<Record<string, string>> = { 'init-kubeconfig': 'agent-bootstrap' };

/**
 * The leaf ids to renew for `names` (`all` or names as `fleetdeck certs` shows them), in the
 * install's order. Throws a UsageError (exit 2) for a CA without --rotate-ca, the
 * service-account key and an unknown name.
 */
export function selectLeaves(names: readonly string[], leaves: readonly LeafSpec[]): LeafSpec[] {
  const wanted = names.length === 0 ? ['all'] : names;
  if (wanted.includes('all')) return [...leaves];
  const ids = new Set<string>();
  for (const raw of wanted) {
    const name = raw.replace(/#\d+$/, '');
    const id = ALIASES[name] ?? name;
    if (CA_SPECS.some((c) => c.id === id))
      throw new UsageError(
        `certs renew: ${name} is a CA; renew it with --rotate-ca (the trust hand-over: certs renew ${name} --rotate-ca)`,
      );
    if (id === SERVICE_ACCOUNT_SPEC.id)
      throw new UsageError(`certs renew: ${name} is a key pair without expiry; there is nothing to renew`);
    if (!leaves.some((l) => l.id === id))
      throw new UsageError(
        `certs renew: no certificate named "${raw}" (renewable: all, ${leaves.map((l) => l.id).join(', ')}, init-kubeconfig)`,
      );
    ids.add(id);
  }
  return leaves.filter((l) => ids.has(l.id));
}
