/**
 * The types of the install's certificate set: what it holds, what was found in the cluster and
 * what was decided about each item. Key fields hold private keys: never print them.
 */
import { UserError } from '../../errors.js';
import type { KeyMaterial, KeyPairPem } from '../../kube/certs/pki.js';

export type { KeyMaterial, KeyPairPem } from '../../kube/certs/pki.js';

/** The address the API server's LoadBalancer Service was actually assigned (ip, hostname or both). */
export interface ApiserverAddress {
  ip?: string;
  hostname?: string;
}

export interface CertSetOptions {
  /** Hosting namespace (NS): goes into the Service and etcd member DNS names. */
  namespace: string;
  /** The LoadBalancer address assigned to the `apiserver` Service; at least one of ip / hostname. */
  apiserverAddress: ApiserverAddress;
  /** Number of etcd members (1 or 3): members `etcd-0` … `etcd-<n-1>`. */
  etcdMembers: number;
  /** Validity of new certificates in days (default 3650). Leaves never outlive their CA. */
  validityDays?: number;
  /** Regenerate every CA, key and certificate on purpose, ignoring what exists. */
  rotate?: boolean;
}

/** Server and peer certificates of one etcd member. */
export interface EtcdMemberCerts {
  server: KeyMaterial;
  peer: KeyMaterial;
}

/** Every certificate and key of the install. Key fields hold private keys: never print them. */
export interface CertSet {
  namespace: string;
  apiserverAddress: ApiserverAddress;
  /** Cluster CA (`nova-ca`). */
  clusterCA: KeyMaterial;
  /** etcd CA (`nova-etcd-ca`). */
  etcdCA: KeyMaterial;
  /** Front-proxy CA (`nova-front-proxy-ca`). */
  frontProxyCA: KeyMaterial;
  /** API server serving certificate (CN `kube-apiserver`). */
  apiserver: KeyMaterial;
  /** API server's client certificate towards etcd (CN `kube-apiserver-etcd-client`, etcd CA). */
  apiserverEtcdClient: KeyMaterial;
  /** Front-proxy client (CN `front-proxy-client`, front-proxy CA). */
  frontProxyClient: KeyMaterial;
  /** One entry per etcd member, index = member ordinal. */
  etcd: EtcdMemberCerts[];
  /** Client CN `system:kube-controller-manager`. */
  controllerManager: KeyMaterial;
  /** Client CN `system:kube-scheduler`. */
  scheduler: KeyMaterial;
  /** Client CN `nova-admin`, O `system:masters`. */
  admin: KeyMaterial;
  /** Client CN `nova-agent-bootstrap`, O `nova:agents`. */
  agentBootstrap: KeyMaterial;
  /** Service-account token signing key pair. */
  serviceAccount: KeyPairPem;
}

/**
 * What was found in the cluster: any part may be missing. A complete {@link CertSet} is also a
 * valid `PartialCertSet`.
 */
export interface PartialCertSet {
  clusterCA?: Partial<KeyMaterial>;
  etcdCA?: Partial<KeyMaterial>;
  frontProxyCA?: Partial<KeyMaterial>;
  apiserver?: Partial<KeyMaterial>;
  apiserverEtcdClient?: Partial<KeyMaterial>;
  frontProxyClient?: Partial<KeyMaterial>;
  etcd?: ({ server?: Partial<KeyMaterial>; peer?: Partial<KeyMaterial> } | undefined)[];
  controllerManager?: Partial<KeyMaterial>;
  scheduler?: Partial<KeyMaterial>;
  admin?: Partial<KeyMaterial>;
  agentBootstrap?: Partial<KeyMaterial>;
  serviceAccount?: Partial<KeyPairPem>;
}

/** One decision of `generateCertSet`. Never contains key material. */
export interface CertAction {
  /** Stable id: `cluster-ca`, `apiserver`, `etcd-1-peer`, `service-account-key`, … */
  id: string;
  /** What it is, for people. */
  description: string;
  /** The Secret (and data keys) it is stored in. */
  location: string;
  /**
   * `reused`: kept as found; `created`: new key and certificate; `reissued`: new certificate for
   * the key found (or, for the service-account pair, public half derived again).
   */
  action: 'reused' | 'created' | 'reissued';
  reason: string;
}

export interface CertSetResult {
  set: CertSet;
  /** One entry per CA, leaf and key pair, in a fixed order. */
  actions: CertAction[];
}

/**
 * A CA (or the service-account key) exists in the cluster but cannot be reused (its private key
 * is missing or does not belong to it). Regenerating it would invalidate every certificate and
 * kubeconfig issued before, so that only happens with `rotate`.
 */
export class CertReuseError extends UserError {}
