/**
 * What each phase of a CA rotation writes (the certificate set signed by the phase's signer,
 * the trust bundles), and the run's own connection to the control plane kept able to talk to it
 * while the serving certificate and the API server's client CA change under it.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { generateCertSet } from '../../../install/certs/generate.js';
import type { CaField } from '../../../install/certs/specs.js';
import type { CertSet, PartialCertSet } from '../../../install/certs/types.js';
import type { RenewInputs } from '../plan.js';
import { type RotationPhase, type Rotation, signerPhase, trustOf } from './bundle.js';
import type { NextCa } from './next-ca.js';

/**
 * The full certificate set of `phase`: in `bundle` the CAs found (the old ones) sign and every
 * leaf is kept; from `leaves` on the new CAs are the CAs, so every leaf not signed by one is
 * re-issued by it for the key it has (the service-account key is kept).
 */
export async function phaseSet(
  inputs: Pick<RenewInputs, 'found' | 'address' | 'members'>,
  namespace: string,
  next: Partial<Record<CaField, NextCa>>,
  phase: RotationPhase,
  days: number,
): Promise<CertSet> {
  const found: PartialCertSet = { ...inputs.found };
  if (signerPhase(phase) === 'next')
    for (const [f, ca] of Object.entries(next) as [CaField, NextCa][]) found[f] = { certPem: ca.certPem, keyPem: ca.keyPem };
  const { set } = await generateCertSet(
    { namespace, apiserverAddress: inputs.address, etcdMembers: inputs.members, validityDays: days },
    found,
  );
  return set;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/**
 * Points `kc` (the run's connection to the control plane) at the cluster CA's trust for
 * `phase` and at the admin certificate of `set`, as the kubeconfig files get them.
 */
export function followTrust(kc: KubeConfig, rotation: Rotation, phase: RotationPhase, set: CertSet): void {
  const cluster = rotation.clusterCA;
  const user = kc.getCurrentUser();
  kc.loadFromOptions({
    clusters: kc.clusters.map((c) =>
      cluster && c.name === kc.getCurrentCluster()?.name ? { ...c, caData: b64(trustOf(cluster, phase)), caFile: undefined } : c,
    ),
    users: kc.users.map((u) =>
      u.name === user?.name && (u.keyData || u.keyFile)
        ? { ...u, certData: b64(set.admin.certPem), certFile: undefined, keyData: b64(set.admin.keyPem), keyFile: undefined }
        : u,
    ),
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
}
