/** Approving or denying a CSR: a condition written through the approval subresource. */
import { CertificatesV1Api, type KubeConfig } from '@kubernetes/client-node';
import { makeClient, statusCode } from '../transport/client.js';
import { csrCondition, type Condition, type CsrCondition } from './summary.js';

export type Decision = 'Approved' | 'Denied';

export interface DecideResult {
  name: string;
  /** `changed`: this call decided it; `unchanged`: it already had this decision; `conflict`: it had the other one (or failed). */
  outcome: 'changed' | 'unchanged' | 'conflict';
  condition: CsrCondition;
  line: string;
}

/**
 * Approves or denies a CSR through its approval subresource (idempotent: a CSR that already
 * has the decision is left as it is; one decided the other way is reported, not changed).
 * Retries on 409 (someone changed it in between).
 */
export async function decide(
  kc: KubeConfig,
  name: string,
  decision: Decision,
  message = `${decision.toLowerCase()} with fleetdeck`,
): Promise<DecideResult> {
  const api = makeClient(kc, CertificatesV1Api);
  const verb = decision === 'Approved' ? 'approved' : 'denied';
  for (let attempt = 0; ; attempt++) {
    const csr = await api.readCertificateSigningRequest({ name });
    const { condition } = csrCondition(csr.status as { conditions?: Condition[]; certificate?: string });
    const already = condition === 'Issued' ? 'Approved' : condition;
    if (already === decision)
      return {
        name,
        outcome: 'unchanged',
        condition,
        line: `${name}: already ${verb}${condition === 'Issued' ? ' (certificate issued)' : ''}, nothing to do`,
      };
    if (already !== 'Pending')
      return {
        name,
        outcome: 'conflict',
        condition,
        line: `${name}: already ${condition.toLowerCase()}, cannot be ${verb} any more (a decision is final)`,
      };
    const now = new Date();
    csr.status = {
      ...csr.status,
      conditions: [
        ...(csr.status?.conditions ?? []),
        {
          type: decision,
          status: 'True',
          reason: decision === 'Approved' ? 'FleetdeckApprove' : 'FleetdeckDeny',
          message,
          lastUpdateTime: now,
          lastTransitionTime: now,
        },
      ],
    };
    try {
      const updated = await api.replaceCertificateSigningRequestApproval({ name, body: csr });
      const c = csrCondition(updated.status as { conditions?: Condition[]; certificate?: string }).condition;
      return { name, outcome: 'changed', condition: c, line: `${name}: ${verb}` };
    } catch (err) {
      if (statusCode(err) === 409 && attempt < 4) continue;
      throw err;
    }
  }
}

export const approve = (kc: KubeConfig, name: string, message?: string) => decide(kc, name, 'Approved', message);
export const deny = (kc: KubeConfig, name: string, message?: string) => decide(kc, name, 'Denied', message);
