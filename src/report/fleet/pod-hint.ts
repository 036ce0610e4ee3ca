import type { ComponentPod } from '../../kube/fleet/component-pod.js';

const imageProblem = (reason: string | undefined) => !!reason && /ImagePull|ErrImage|InvalidImageName/.test(reason);

export function podHint(ctx: string, ns: string, pod: ComponentPod | undefined, etcd: boolean): string | undefined {
  if (!pod) return undefined;
  const describe = `kubectl --context=${ctx} -n ${ns} describe pod ${pod.name}`;
  const reason = pod.reason ?? '';
  if (imageProblem(reason)) return `the image cannot be pulled: check its name and the registry access of ${ctx}: ${describe}`;
  if (etcd && pod.phase === 'Pending') {
    return `ETCD pods will not start if the storage provisioner is not configured for a hosting cluster: ${ctx} MUST have a storage provisioner and a default StorageClass (etcd runs as a StatefulSet and requires a PersistentVolume); check kubectl --context=${ctx} get storageclass,pvc -n ${ns}`;
  }
  if (/Unschedulable/.test(reason)) {
    if (/anti-affinity/.test(reason)) {
      return `the HA overlay spreads 3 replicas of each component across zones (podAntiAffinity on topology.kubernetes.io/zone): ${ctx} needs schedulable nodes in 3 zones; ${describe}`;
    }
    return `no node can take it (resources, taints, affinity): ${describe}`;
  }
  if (/CrashLoopBackOff|Error|OOMKilled|ExitCode|Signal/.test(reason))
    return `see why it exits: kubectl --context=${ctx} -n ${ns} logs ${pod.name} --previous`;
  return describe;
}
