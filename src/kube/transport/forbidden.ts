/**
 * What a 403 from the API server says is missing, in a few words: "needs update on
 * certificatesigningrequests/approval", "needs approve on signers kubernetes.io/kubelet-serving".
 * Read from the Status message the API server sends (RBAC's wording, and the CSR approval
 * plugin's for signers).
 */

/** `User "x" cannot update resource "certificatesigningrequests/approval" in API group "certificates.k8s.io" at the cluster scope` */
const RBAC = /cannot (\S+) resource "([^"]+)"(?: in API group "([^"]*)")?(?: in the namespace "([^"]+)")?/;
/** `user not permitted to approve requests with signerName "kubernetes.io/kubelet-serving"` */
const SIGNER = /not permitted to (\S+) requests with signerName "([^"]+)"/;

/** "needs update on certificatesigningrequests/approval", or undefined when the message names no permission. */
export function missingPermission(message: string): string | undefined {
  const signer = SIGNER.exec(message);
  if (signer) return `needs ${signer[1]} on signers ${signer[2]}`;
  const rbac = RBAC.exec(message);
  if (!rbac) return undefined;
  const [, verb, resource, , namespace] = rbac;
  return `needs ${verb} on ${resource}${namespace ? ` in namespace ${namespace}` : ''}`;
}

/** `line` with what is missing after it, "… (needs update on …)", when it is a 403 that says. */
export function withMissingPermission(line: string): string {
  if (!/\b403\b|forbidden/i.test(line)) return line;
  const needs = missingPermission(line);
  return needs && !line.includes(needs) ? `${line} (${needs})` : line;
}
