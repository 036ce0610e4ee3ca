import {
  ApiextensionsV1Api,
  AppsV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type V1CustomResourceDefinition,
  type V1PodSpec,
} from '@kubernetes/client-node';
import { makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { eventually } from '../cli/cli.js';

export const PAUSE = 'registry.k8s.io/pause:3.9';

/** Ignore API errors with these HTTP codes (e.g. 404 on cleanup, 409 on re-create). */
export const ignore =
  (...codes: number[]) =>
  (err: unknown): void => {
    if (!codes.includes(statusCode(err) ?? 0)) throw err;
  };

function crd(plural: string, group: string, kind: string, scope: 'Cluster' | 'Namespaced'): V1CustomResourceDefinition {
  return {
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope,
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
        },
      ],
    },
  };
}

/** Nova's three CRDs (all cluster-scoped), with schemas that accept any fields. */
export const NOVA_CRD_OBJECTS = [
  crd('clusters', 'cluster.elotl.co', 'Cluster', 'Cluster'),
  crd('schedulepolicies', 'policy.elotl.co', 'SchedulePolicy', 'Cluster'),
  crd('schedulegroups', 'policy.elotl.co', 'ScheduleGroup', 'Cluster'),
];

/** Creates the CRDs (waiting out a previous test's deletion still in progress) until they serve. */
export async function installNovaCrds(kc: KubeConfig): Promise<void> {
  const ext = makeClient(kc, ApiextensionsV1Api);
  for (const body of NOVA_CRD_OBJECTS) {
    await eventually(
      `CRD ${body.metadata!.name} created`,
      () => ext.createCustomResourceDefinition({ body }).then(() => true),
      60_000,
      500,
    );
  }
  for (const body of NOVA_CRD_OBJECTS) {
    await eventually(`CRD ${body.metadata!.name} established`, async () => {
      const c = await ext.readCustomResourceDefinition({ name: body.metadata!.name! });
      return c.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True');
    });
  }
}

/** Deletes the CRDs and waits until they are gone, so the next test starts clean. */
export async function deleteNovaCrds(kc: KubeConfig): Promise<void> {
  const ext = makeClient(kc, ApiextensionsV1Api);
  for (const body of NOVA_CRD_OBJECTS) await ext.deleteCustomResourceDefinition({ name: body.metadata!.name! }).catch(ignore(404));
  for (const body of NOVA_CRD_OBJECTS) {
    await eventually(`CRD ${body.metadata!.name} gone`, () =>
      ext.readCustomResourceDefinition({ name: body.metadata!.name! }).then(
        () => false,
        (e: unknown) => statusCode(e) === 404,
      ),
    );
  }
}

/** A Deployment of pause pods with these labels (and optional pod annotations / spec). */
export async function pauseDeployment(
  kc: KubeConfig,
  namespace: string,
  name: string,
  labels: Record<string, string>,
  opts: { replicas?: number; annotations?: Record<string, string>; podSpec?: Partial<V1PodSpec> } = {},
): Promise<void> {
  await makeClient(kc, AppsV1Api).createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name },
      spec: {
        replicas: opts.replicas ?? 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels, annotations: opts.annotations ?? {} },
          spec: { ...opts.podSpec, containers: [{ name: 'main', image: PAUSE }] },
        },
      },
    },
  });
}

/** A Cluster object as a connected agent registers it (Ready/Idle/Standby conditions given as "True"/"False"). */
export async function createNovaCluster(
  kc: KubeConfig,
  name: string,
  spec: Record<string, unknown>,
  conditions: { Ready: string; Idle: string; Standby: string },
): Promise<void> {
  const now = new Date().toISOString();
  await makeClient(kc, CustomObjectsApi).createClusterCustomObject({
    group: 'cluster.elotl.co',
    version: 'v1alpha1',
    plural: 'clusters',
    body: {
      apiVersion: 'cluster.elotl.co/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: { name, ...spec },
      status: {
        lastUpdateTime: now,
        conditions: Object.entries(conditions).map(([type, status]) => ({
          type,
          status,
          reason: type,
          message: '',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        })),
      },
    },
  });
}

export async function createSchedulePolicy(kc: KubeConfig, name: string): Promise<void> {
  await makeClient(kc, CustomObjectsApi).createClusterCustomObject({
    group: 'policy.elotl.co',
    version: 'v1alpha1',
    plural: 'schedulepolicies',
    body: { apiVersion: 'policy.elotl.co/v1alpha1', kind: 'SchedulePolicy', metadata: { name }, spec: {} },
  });
}
