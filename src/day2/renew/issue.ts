/**
 * New leaf certificates for the keys already in place, signed by the CAs already in place: the
 * certificate set read back from the Secrets, with the chosen leaves re-issued. The CAs and
 * every key stay as they are, so nothing issued before stops being trusted.
 */
import { generateCertSet } from '../../install/certs/generate.js';
import { type LeafSpec, pickLeaf } from '../../install/certs/specs.js';
import type { ApiserverAddress, CertSet, EtcdMemberCerts, KeyMaterial, PartialCertSet } from '../../install/certs/types.js';
import { type Authority, authorityFromPem, issueCertificate } from '../../kube/certs/pki.js';

function place(set: CertSet, spec: LeafSpec, material: KeyMaterial): void {
  const p = spec.place;
  if ('field' in p) set[p.field] = material;
  else set.etcd[p.member] = { ...(set.etcd[p.member] as EtcdMemberCerts), [p.role]: material };
}

/**
 * The full set with every leaf of `leaves` re-issued (same key, same subject, usage and SANs,
 * valid `days` from now and never beyond its CA). The rest is kept as found (`generateCertSet`
 * with the Secrets' contents: what is missing or broken is made whole as the install would).
 */
export async function renewedSet(
  found: PartialCertSet,
  leaves: readonly LeafSpec[],
  o: { namespace: string; address: ApiserverAddress; members: number; days: number },
): Promise<CertSet> {
  const { set } = await generateCertSet(
    { namespace: o.namespace, apiserverAddress: o.address, etcdMembers: o.members, validityDays: o.days },
    found,
  );
  const cas = new Map<string, Authority>();
  const caOf = (field: LeafSpec['ca']): Authority => {
    let a = cas.get(field);
    if (!a) {
      a = authorityFromPem(set[field].certPem, set[field].keyPem);
      cas.set(field, a);
    }
    return a;
  };
  const issued = await Promise.all(
    leaves.map((spec) => {
      const keyPem = pickLeaf(set, spec.place)!.keyPem!;
      return issueCertificate(caOf(spec.ca), { ...spec.req, days: o.days, keyPem });
    }),
  );
  for (const [i, spec] of leaves.entries()) place(set, spec, issued[i]!);
  return set;
}
