/** What a log view shows: the pods of one row of a screen (a component, an agent, a pod, a rollout's blocking pods). */
export interface LogTarget {
  /** What the view's title says, e.g. `kube-apiserver · kind-cp/elotl`. */
  title: string;
  context: string;
  namespace: string;
  /** These pods by name; with `selector` as well, only those of them that still match. */
  pods?: string[];
  /** Every pod matching this label selector (while following, pods that appear join). */
  selector?: string;
  /** The container to show first (default: the pod's default container). */
  container?: string;
  /** The object whose recent Events are shown beside the log (default: the pod shown). */
  events?: { kind: string; name: string; namespace?: string };
}
