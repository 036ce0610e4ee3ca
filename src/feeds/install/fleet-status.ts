/** The install's last check: the fleet's status as `fleetdeck status` collects and judges it. */
import type { FleetStatusCheck } from '../../install/install.js';
import { contextInfos } from '../../kube/config/kubeconfig.js';
import { fleetChecklist } from '../../report/fleet-checklist.js';
import { fleetHealthy } from '../../report/status.js';
import { collectStatus } from '../status-feed.js';

export const fleetStatusCheck: FleetStatusCheck = async (kc, names, fleet) => {
  const contexts = contextInfos(kc).filter((c) => names.includes(c.name));
  const state = await collectStatus(kc, contexts, 20_000, fleet);
  return { items: fleetChecklist(state), healthy: fleetHealthy(state) };
};
