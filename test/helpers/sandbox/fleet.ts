/**
 * The sandbox fleet of this test file: the integration project starts one per worker
 * (sandbox-setup.ts), and each worker's files use its own, so two files never share a fleet.
 */
import { inject } from 'vitest';

export interface SandboxFleet {
  /** The sandbox's state directory (`fleetdeck sandbox … --dir`). */
  dir: string;
  kubeconfig: string;
  /** The read-only user's kubeconfig of the same clusters. */
  readOnlyKubeconfig: string;
}

/** This worker's fleet (VITEST_POOL_ID is 1…maxWorkers, one per worker running at once). */
export function sandbox(): SandboxFleet {
  const all = inject('sandboxes');
  const id = Number(process.env.VITEST_POOL_ID ?? '1');
  const fleet = all[(Number.isInteger(id) && id > 0 ? id - 1 : 0) % all.length];
  if (!fleet) throw new Error('no sandbox fleet: integration tests run in the integration project (test/helpers/sandbox/sandbox-setup.ts)');
  return fleet;
}
