/**
 * What the Certificates view reads, bound to the session: the same sources `fleetdeck certs`
 * reads (the install's Secrets in the hosting context, each workload's init kubeconfig, the
 * kubeconfig's client certificates), through src/kube. Certificate metadata only.
 */
import { DEFAULT_NAMESPACE } from '../config/fleet-config.js';
import { CERT_SECRET_NAMES, INIT_KUBECONFIG_SECRET } from '../install/certs/specs.js';
import type { CertSources } from '../kube/certs/cert-sources.js';
import type { Session } from '../session/session.js';
import type { CertsWork } from './certs.js';

/** Where the fleet's certificates are: the hosting context (none: no fleet, only the kubeconfig's), its namespace, the workloads. */
export interface FleetCertTargets {
  hosting?: string | undefined;
  namespace: string;
  workloads: readonly string[];
}

/** Reads every certificate source of `t` (`fleetdeck certs` and the dashboard's view alike); nothing is written. */
export async function readFleetCerts(session: Pick<Session, 'kc' | 'config'>, t: FleetCertTargets): Promise<CertSources> {
  // Certificate parsing (node-forge) loads with the first read, not with the dashboard.
  const { readCertSources } = await import('../kube/certs/cert-sources.js');
  const secrets = { controlPlane: CERT_SECRET_NAMES, agentInit: INIT_KUBECONFIG_SECRET };
  return readCertSources(session.kc, session.config, { ...t, secrets });
}

/** The view's reads, on the session as it is at each read (a sandbox started or a fleet installed meanwhile). */
export function certsWork(session: () => Session): CertsWork {
  return {
    read: async () => {
      const s = session();
      // A fleet whose hosting cluster is not this kubeconfig's is not read: the kubeconfig's own certificates are.
      const fleet = s.fleet?.problems?.[s.fleet.hostingContext] ? undefined : s.fleet;
      const sources = await readFleetCerts(s, {
        hosting: fleet?.hostingContext,
        namespace: fleet?.namespace ?? DEFAULT_NAMESPACE,
        // A workload context that is gone or another cluster is not read.
        workloads: fleet?.workloads.map((w) => w.context).filter((c) => !fleet.problems?.[c]) ?? [],
      });
      return { sources, noFleet: fleet === undefined };
    },
  };
}
