/**
 * The images the sandbox's kubelet can pull. A real node pulls what its registry holds; the
 * sandbox has no registry, so it knows a list — the repositories of the control plane's bundle
 * (Kubernetes' components, etcd, Nova's agent and scheduler) with tags of their form, fleetdeck's
 * own image, common public images that examples use, and images under the reserved example
 * domains (`*.example`, `example.com`: placeholders for an image of yours) — and any other image
 * fails as a real pull of a missing image does: ErrImagePull, then ImagePullBackOff, with the
 * kubelet's Events. The list is documented in docs/sandbox.md.
 */
import { FLEETDECK_IMAGE } from './processes.js';

/** Kubernetes' release tags: vX.Y.Z, and its pre-releases (-alpha.N, -beta.N, -rc.N). */
const SEMVER_TAG = /^v\d+\.\d+\.\d+(-(alpha|beta|rc)\.\d+)?$/;
const ANY_TAG = /^[\w][\w.-]{0,127}$/;

/** Repositories it pulls, each with the tags it has (Kubernetes' own are released as vX.Y.Z). */
export const PULLABLE: readonly { repository: string; tag: RegExp }[] = [
  { repository: 'registry.k8s.io/kube-apiserver', tag: SEMVER_TAG },
  { repository: 'registry.k8s.io/kube-controller-manager', tag: SEMVER_TAG },
  { repository: 'registry.k8s.io/kube-scheduler', tag: SEMVER_TAG },
  { repository: 'registry.k8s.io/kube-proxy', tag: SEMVER_TAG },
  { repository: 'registry.k8s.io/etcd', tag: /^\d+\.\d+\.\d+(-\d+)?$/ },
  { repository: 'quay.io/coreos/etcd', tag: SEMVER_TAG },
  { repository: 'gcr.io/etcd-development/etcd', tag: SEMVER_TAG },
  { repository: 'registry.k8s.io/pause', tag: /^\d+\.\d+(\.\d+)?$/ },
  { repository: 'registry.k8s.io/coredns/coredns', tag: SEMVER_TAG },
  { repository: 'elotl/nova-agent', tag: SEMVER_TAG },
  { repository: 'elotl/nova-scheduler', tag: SEMVER_TAG },
  ...['nginx', 'busybox', 'alpine', 'httpd', 'redis', 'postgres', 'memcached'].map((repository) => ({ repository, tag: ANY_TAG })),
];

/** The repository and tag of an image reference (`docker.io/library/` dropped, as Docker Hub's short names). */
export function parseImage(image: string): { repository: string; tag?: string; digest?: string } {
  const [name = '', digest] = image.split('@');
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  const tag = colon > slash ? name.slice(colon + 1) : undefined;
  let repository = colon > slash ? name.slice(0, colon) : name;
  // Registry hosts are case-insensitive; Docker Hub has several names, and its official images a `library/` prefix.
  const first = repository.split('/')[0]!;
  if (repository.includes('/') && /[.:]|^localhost$/.test(first)) repository = `${first.toLowerCase()}${repository.slice(first.length)}`;
  repository = repository.replace(/^(docker\.io|index\.docker\.io|registry-1\.docker\.io)\//, '').replace(/^library\//, '');
  // k8s.gcr.io is registry.k8s.io's former name (it redirects there).
  repository = repository.replace(/^k8s\.gcr\.io\//, 'registry.k8s.io/');
  return { repository, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) };
}

/** A registry host under the reserved example names (RFC 2606): an image that stands for one of yours. */
function exampleRegistry(repository: string): boolean {
  const host = repository.includes('/') ? repository.split('/')[0]! : '';
  return /(^|\.)example(\.(com|net|org))?(:\d+)?$/.test(host);
}

/** Whether the sandbox can pull `image`: a known repository with a tag of its form (or a digest, or none: latest). */
export function pullable(image: string): boolean {
  if (FLEETDECK_IMAGE.test(image)) return true;
  const { repository, tag } = parseImage(image);
  if (exampleRegistry(repository)) return true;
  const known = PULLABLE.find((p) => p.repository === repository);
  return !!known && (tag === undefined || known.tag.test(tag));
}

/** The first image of the pod (init containers first) the sandbox cannot pull. */
export function unpullableImage(containers: readonly { image?: string }[]): string | undefined {
  return containers.map((c) => c.image ?? '').find((image) => !pullable(image));
}
