/**
 * The agent's cluster-wide RBAC (ClusterRole and ClusterRoleBinding `nova-agent`) has the same
 * names for every install in a workload cluster. Uninstalling one install removes only its own
 * share: its ServiceAccount from the binding's subjects; the objects go only when no other
 * install's agent is left in them.
 */
import type { Applier, Manifest } from '../kube/api/apply.js';

export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export type BindingFate =
  /** Nobody else is bound: delete the binding (and its ClusterRole). */
  | { fate: 'delete' }
  /** Other installs' agents are still bound: keep it with `subjects` (`changed`: this install's subject was in it). */
  | { fate: 'keep'; subjects: Subject[]; changed: boolean };

/** Whether this install's (`namespace`) ServiceAccount is a subject. */
const ours = (s: Subject, namespace: string) => s.kind === 'ServiceAccount' && s.namespace === namespace;

export function bindingFate(subjects: readonly Subject[] | undefined, namespace: string): BindingFate {
  const all = subjects ?? [];
  const others = all.filter((s) => !ours(s, namespace));
  return others.length === 0 ? { fate: 'delete' } : { fate: 'keep', subjects: others, changed: others.length !== all.length };
}

/** The cluster-scoped RBAC kinds that installs share. */
export const isSharedRbac = (kind: string) => kind === 'ClusterRole' || kind === 'ClusterRoleBinding';

/**
 * Of the agent's cluster-wide RBAC objects, those this uninstall deletes; a binding another
 * install's agent still uses is kept with this install's subject taken out, and so is the
 * ClusterRole it binds. `kept` says what was kept (for the row), empty when nothing.
 */
export async function sharedRbac(
  applier: Applier,
  objs: readonly Manifest[],
  namespace: string,
): Promise<{ remove: Manifest[]; kept: string }> {
  const keptRoles = new Set<string>();
  const remove: Manifest[] = [];
  const kept: string[] = [];
  for (const o of objs.filter((x) => x.kind === 'ClusterRoleBinding')) {
    const live = await applier.read<Manifest & { subjects?: Subject[]; roleRef?: { name?: string } }>(o);
    const fate = bindingFate(live?.subjects, namespace);
    if (!live || fate.fate === 'delete') {
      remove.push(o);
      continue;
    }
    if (live.roleRef?.name) keptRoles.add(live.roleRef.name);
    kept.push(`ClusterRoleBinding ${o.metadata.name} kept (other installs' agents use it)`);
    if (fate.changed) {
      await applier.apply({
        apiVersion: o.apiVersion,
        kind: o.kind,
        metadata: { name: o.metadata.name },
        roleRef: live.roleRef,
        subjects: fate.subjects,
      } as Manifest);
    }
  }
  for (const o of objs.filter((x) => x.kind === 'ClusterRole')) {
    if (keptRoles.has(o.metadata.name)) kept.push(`ClusterRole ${o.metadata.name} kept`);
    else remove.push(o);
  }
  return { remove, kept: kept.join(', ') };
}
