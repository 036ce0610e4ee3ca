import type { V1Pod } from '@kubernetes/client-node';

/** The pods bound to the simulated kubelet's nodes, as last seen, by `namespace/name` and by node. */
export class PodCache {
  private readonly pods = new Map<string, V1Pod>();
  private readonly byNode = new Map<string, Set<string>>(); // node name → keys of its pods in `pods`

  get(key: string): V1Pod | undefined {
    return this.pods.get(key);
  }

  entries(): IterableIterator<[string, V1Pod]> {
    return this.pods.entries();
  }

  set(key: string, pod: V1Pod): void {
    const node = pod.spec?.nodeName ?? '';
    const before = this.pods.get(key)?.spec?.nodeName;
    if (before !== undefined && before !== node) this.unindex(key, before);
    this.pods.set(key, pod);
    let keys = this.byNode.get(node);
    if (!keys) {
      keys = new Set();
      this.byNode.set(node, keys);
    }
    keys.add(key);
  }

  delete(key: string): void {
    const node = this.pods.get(key)?.spec?.nodeName;
    this.pods.delete(key);
    if (node !== undefined) this.unindex(key, node);
  }

  /** The pods bound to a node (finished and terminating ones included). */
  podsOn(nodeName: string): V1Pod[] {
    return [...(this.byNode.get(nodeName) ?? [])].flatMap((key) => {
      const p = this.pods.get(key);
      return p ? [p] : [];
    });
  }

  private unindex(key: string, node: string): void {
    const keys = this.byNode.get(node);
    keys?.delete(key);
    if (keys?.size === 0) this.byNode.delete(node);
  }
}
