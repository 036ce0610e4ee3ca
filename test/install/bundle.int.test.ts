import { CoreV1Api, KubernetesObjectApi, PatchStrategy, dumpYaml, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, statusCode } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { toClientObject } from '../../src/kube/api/apply.js';
import { forNamespace, loadBundle, withClusterName, withHA, withoutHA, type Bundle, type KubeObject } from '../../src/install/bundle.js';
import { ignore } from '../helpers/sandbox/nova.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const NS = `bundle-dry-run-${process.pid}`;

const contextConfig = (name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig }).config, name);

/** The object as the server returned it, in JSON field names. */
const asJson = (o: KubernetesObject): unknown => parse(dumpYaml(o));

/**
 * Every field of `sent` is in `got` with the same value. A 1.20 API server drops fields it does
 * not know without an error; this catches a misspelled or misplaced field.
 */
function expectContained(sent: unknown, got: unknown, at: string): void {
  if (Array.isArray(sent)) {
    expect(Array.isArray(got), at).toBe(true);
    expect((got as unknown[]).length, at).toBe(sent.length);
    for (const [i, v] of sent.entries()) expectContained(v, (got as unknown[])[i], `${at}[${i}]`);
  } else if (typeof sent === 'object' && sent !== null) {
    expect(typeof got === 'object' && got !== null, at).toBe(true);
    for (const [k, v] of Object.entries(sent)) expectContained(v, (got as Record<string, unknown>)[k], `${at}.${k}`);
  } else {
    expect(got, at).toEqual(sent);
  }
}

/** Creates the object with a server-side dry run (an existing one: a dry-run server-side apply). */
async function dryRun(api: KubernetesObjectApi, obj: KubeObject): Promise<unknown> {
  const model = toClientObject(obj);
  const created = await api.create(model, undefined, 'All').catch(async (err: unknown) => {
    if (statusCode(err) !== 409) throw err;
    return api.patch(model, undefined, 'All', 'fleetdeck-test', true, PatchStrategy.ServerSideApply);
  });
  return asJson(created);
}

async function expectAccepted(api: KubernetesObjectApi, objs: KubeObject[]): Promise<void> {
  for (const obj of objs) {
    const id = `${obj.kind}/${obj.metadata.name}`;
    const got = await dryRun(api, obj).catch((err: unknown) => {
      throw new Error(`${id} rejected: ${String((err as { body?: unknown }).body ?? err)}`);
    });
    expectContained(obj, got, id);
  }
}

describe('the default bundle on a real API server (server-side dry run)', () => {
  let bundle: Bundle;
  let hosting: KubeConfig;
  let workload: KubeConfig;

  beforeAll(async () => {
    bundle = await loadBundle();
    hosting = contextConfig('kind-cp');
    workload = contextConfig('kind-workload-1');
    for (const kc of [hosting, workload]) {
      await createNamespace(makeClient(kc, CoreV1Api), NS);
    }
  });

  afterAll(async () => {
    for (const kc of [hosting, workload]) {
      if (kc) await makeClient(kc, CoreV1Api).deleteNamespace({ name: NS }).catch(ignore(404));
    }
  });

  it('the API server Service and the control plane, without and with HA, in the hosting cluster', async () => {
    const api = KubernetesObjectApi.makeApiClient(hosting);
    await expectAccepted(api, forNamespace([bundle.service, ...withoutHA(bundle.controlPlane)], NS));
    await expectAccepted(api, forNamespace(withHA(bundle.controlPlane, { replicas: 3, topologyKey: 'topology.kubernetes.io/zone' }), NS));
  });

  it('the CRDs (their open schemas kept)', async () => {
    const api = KubernetesObjectApi.makeApiClient(hosting);
    await expectAccepted(api, forNamespace(bundle.crds, NS));
  });

  it('the agent, named, in a workload cluster', async () => {
    const api = KubernetesObjectApi.makeApiClient(workload);
    await expectAccepted(api, forNamespace(withClusterName(bundle.agent, 'kind-workload-1'), NS));
  });

  it('a manifest as parsed loses CRD schema fields through KubernetesObjectApi; toClientObject keeps them', async () => {
    const api = KubernetesObjectApi.makeApiClient(hosting);
    const crd = structuredClone(bundle.crds[0]!);
    crd.metadata.name = 'probes.bundle-test.example.com';
    Object.assign(crd.spec as object, { group: 'bundle-test.example.com', names: { kind: 'Probe', plural: 'probes' } });
    const schemaOf = (o: unknown) =>
      (o as { spec: { versions: { schema: { openAPIV3Schema: unknown } }[] } }).spec.versions[0]!.schema.openAPIV3Schema;
    const raw = asJson(await api.create(crd as KubernetesObject, undefined, 'All'));
    expect(schemaOf(raw)).toEqual({ type: 'object' });
    expect(schemaOf(await dryRun(api, crd))).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });
});
