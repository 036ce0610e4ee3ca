/** The nodes a plan chooses from: every node of the cluster with its labels. */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { describeError } from '../kube/transport/client.js';
import { listLabeledNodes, type LabeledNode } from '../kube/nodes/nodes.js';
import type { PlanNode } from './types.js';

/** The cluster's nodes with their labels, as the plan reads them (one list). */
export async function listPlanNodes(kc: KubeConfig, context: string): Promise<PlanNode[]> {
  let nodes: LabeledNode[];
  try {
    nodes = await listLabeledNodes(kc);
  } catch (err) {
    throw new UserError(`cannot list the nodes of ${context}: ${describeError(err)}`);
  }
  return nodes.map((n) => ({ name: n.name, labels: n.labels, unschedulable: n.unschedulable, ready: n.ready }));
}
