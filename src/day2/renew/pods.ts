/** The pods a renewal restarts: a control-plane component's in the hosting namespace, the agent's in a workload cluster. */
import type { KubeConfig } from '@kubernetes/client-node';
import { listPods, type PodObject } from '../../kube/pods/pod-ops.js';
import type { Component } from './select.js';
import type { RenewTarget } from './target.js';

export const AGENT_SELECTOR = 'app=nova-agent';

export interface PodFact {
  name: string;
  uid: string;
  ready: boolean;
}

type WithConditions = PodObject & { status?: { conditions?: { type: string; status: string }[] } };

/** The live (not terminating) pods of `selector` in `namespace`. */
export async function podsOf(kc: KubeConfig, namespace: string, selector: string): Promise<PodFact[]> {
  const all = await listPods(kc, { labelSelector: selector, fieldSelector: `metadata.namespace=${namespace}` }, (p) => p as WithConditions);
  return all
    .filter((p) => !p.metadata?.deletionTimestamp)
    .map((p) => ({
      name: p.metadata?.name ?? '',
      uid: p.metadata?.uid ?? '',
      ready: p.status?.phase === 'Running' && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function componentPods(t: RenewTarget, c: Component): Promise<PodFact[]> {
  return podsOf(t.hosting.kc, t.namespace, c.selector);
}

export function agentPods(kc: KubeConfig, namespace: string): Promise<PodFact[]> {
  return podsOf(kc, namespace, AGENT_SELECTOR);
}
