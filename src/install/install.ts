import fs from 'node:fs';
import path from 'node:path';
import { CoreV1Api, KubeConfig, VersionApi, type V1Pod, type V1Secret, type V1Service } from '@kubernetes/client-node';
import { writeFleetFile } from '../config/fleet-config.js';
import { Applier, objectRef, type ApplyResult, type Manifest } from '../kube/apply.js';
import { makeClient, statusCode } from '../kube/client.js';
import { contextInfos } from '../kube/kubeconfig.js';
import { podState } from '../kube/pods.js';
import { retryUntil, waitFor } from '../kube/wait.js';
import { fleetHealthy } from '../report/status.js';
import { collectStatus } from '../feeds/status-feed.js';
import { fleetChecklist } from '../report/fleet-checklist.js';
import type { CheckItem } from '../checklist/checklist.js';
import type { FleetConfig } from '../kube/fleet.js';
import { forNamespace, loadBundle, withClusterName, withHA, withoutHA, type Bundle } from './bundle.js';
import { adminKubeconfig, certSecrets, certSetFromSecrets, generateCertSet, initKubeconfig, servingCertCovers, CERT_SECRET_NAMES, type CertSet } from './certs/index.js';
import { mergeKubeconfigFile } from './kubeconfig-file.js';
import { COMPONENTS, HINTS, installSteps, TIMEOUTS, type InstallOptions, type WorkloadTarget } from './plan.js';
import { StepError, StepRunner, type RowControl } from './runner.js';

export const INIT_KUBECONFIG_SECRET = 'nova-cluster-init-kubeconfig';
const MANAGED_LABELS = { 'app.kubernetes.io/managed-by': 'fleetdeck', 'app.kubernetes.io/part-of': 'nova' };

export interface InstallResult {
  ok: boolean;
  steps: CheckItem[];
  /** The LoadBalancer address the control plane got. */
  address?: string;
  kubeconfigPath?: string;
  /** Every object applied, per context, with what happened to it (what would, in a dry run). */
  applied: { context: string; ref: string; action: ApplyResult['action'] }[];
  /** The fleet checklist at the end (status), when the install got there. */
  status?: CheckItem[];
}

/** "3 created, 2 unchanged" */
function summarize(results: ApplyResult[], dryRun: boolean): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.action, (counts.get(r.action) ?? 0) + 1);
  const word = (a: string) => (dryRun ? { created: 'to create', configured: 'to change', unchanged: 'unchanged' }[a] ?? a : a);
  return [...counts].map(([a, n]) => `${n} ${word(a)}`).join(', ') || 'nothing';
}

function addressOf(svc: V1Service | undefined): { ip?: string; hostname?: string } | undefined {
  const ing = svc?.status?.loadBalancer?.ingress?.[0];
  if (ing?.ip) return { ip: ing.ip };
  if (ing?.hostname) return { hostname: ing.hostname };
  return undefined;
}

const hostOf = (a: { ip?: string; hostname?: string }) => a.ip ?? a.hostname ?? '';

/**
 * The install, as the guide's steps, each a live row: namespace, the API server's
 * LoadBalancer Service and its address, certificates (existing ones reused), the control plane
 * (HA or not), its components running, its endpoint answering, its kubeconfig, the CRDs, every
 * workload cluster's agent registered and Ready, and the fleet recorded and checked.
 *
 * Every step is idempotent (server-side apply, certificates read back from their Secrets), so
 * running it again after an interruption — a SIGKILL included — picks up where it stopped and
 * creates no duplicates. A dry run reports every object it would create or change and changes
 * nothing.
 */
export async function runInstall(opts: InstallOptions, publish: (items: CheckItem[]) => void, signal?: AbortSignal): Promise<InstallResult> {
  const runner = new StepRunner(publish);
  const result: InstallResult = { ok: false, steps: [], applied: [] };
  const { namespace: ns, dryRun } = opts;
  const hosting = new Applier(opts.hosting.kc);
  const core = makeClient(opts.hosting.kc, CoreV1Api);
  const record = (context: string, results: ApplyResult[]) => {
    for (const r of results) result.applied.push({ context, ...r });
  };
  const applyAll = async (applier: Applier, context: string, objs: Manifest[]) => {
    const results: ApplyResult[] = [];
    for (const o of objs) {
      signal?.throwIfAborted();
      results.push(await applier.apply(o, { dryRun }));
    }
    record(context, results);
    return results;
  };

  runner.plan(installSteps(opts));
  let bundle: Bundle;
  let address: { ip?: string; hostname?: string } | undefined;
  let certs: CertSet | undefined;
  let cpKc: KubeConfig | undefined;
  try {
    bundle = await loadBundle(opts.bundleDir);
    const controlPlane = forNamespace(opts.ha ? withHA(bundle.controlPlane, { replicas: 3, topologyKey: opts.topologyKey }) : withoutHA(bundle.controlPlane), ns);

    await runner.run('namespace', async () => {
      const results = await applyAll(hosting, opts.hosting.context, [namespaceObject(ns)]);
      return `${ns} ${results[0]?.action ?? ''}`.trim();
    });

    await runner.run('service', async (row) => {
      const [svc] = forNamespace([bundle.service], ns);
      const results = await applyAll(hosting, opts.hosting.context, [svc!]);
      if (dryRun) {
        address = addressOf(await core.readNamespacedService({ name: svc!.metadata.name, namespace: ns }).catch(() => undefined));
        return address ? `${summarize(results, true)}; address ${hostOf(address)}` : `${summarize(results, true)}; its address is known once it exists`;
      }
      row.progress('waiting for an external address');
      row.hint(undefined);
      const hintLater = setTimeout(() => row.hint(HINTS.loadBalancer), 30_000);
      try {
        await waitFor<V1Service>({
          kc: opts.hosting.kc,
          path: `/api/v1/namespaces/${ns}/services`,
          fieldSelector: `metadata.name=${svc!.metadata.name}`,
          timeoutMs: TIMEOUTS.loadBalancer,
          ...(signal ? { signal } : {}),
          check: (items) => {
            address = addressOf(items[0]);
            return { done: address !== undefined, detail: address ? hostOf(address) : 'Pending (no ingress address yet)' };
          },
          onProgress: (d) => row.progress(d),
        });
      } catch (err) {
        throw new StepError(err instanceof Error ? err.message : String(err), HINTS.loadBalancer);
      } finally {
        clearTimeout(hintLater);
      }
      return `${address!.ip ? 'IP' : 'hostname'} ${hostOf(address!)}`;
    });
    if (address) result.address = hostOf(address);

    await runner.run('certs', async (row) => {
      const existing = await readCertSecrets(core, ns);
      if (!address) {
        // A dry run before the Service exists: the Secrets are known by name, their contents are not.
        const missing = CERT_SECRET_NAMES.filter((n) => !existing[n]);
        record(opts.hosting.context, missing.map((n) => ({ ref: `Secret ${ns}/${n}`, action: 'created' as const })));
        return `${missing.length} Secrets to create (generated once the Service has an address)${Object.keys(existing).length ? `, ${Object.keys(existing).length} exist` : ''}`;
      }
      row.progress('generating keys and certificates');
      const generated = await generateCertSet(
        { namespace: ns, apiserverAddress: address, etcdMembers: opts.ha ? 3 : 1, validityDays: opts.validityDays, rotate: opts.rotateCerts },
        certSetFromSecrets(Object.values(existing)),
      );
      certs = generated.set;
      const serving = certs.apiserver.certPem;
      if (!serving || !servingCertCovers(serving, address)) {
        throw new StepError(`the API server certificate does not cover ${hostOf(address)}`, 'run the install again with --rotate-certs to re-issue it');
      }
      const results = await applyAll(hosting, opts.hosting.context, certSecrets(certs, ns) as Manifest[]);
      const reused = generated.actions.filter((a) => a.action === 'reused').length;
      return `${summarize(results, dryRun)}; ${reused ? `${reused} reused, ` : ''}serving certificate covers ${hostOf(address)}`;
    });

    await runner.run('control-plane', async () => {
      const results = await applyAll(hosting, opts.hosting.context, controlPlane);
      return `${opts.ha ? `HA (3 replicas, spread by ${opts.topologyKey})` : 'single replica'}: ${summarize(results, dryRun)}`;
    });

    if (dryRun) {
      for (const id of ['components', 'endpoint', 'ready']) runner.skip(id, 'dry run');
      runner.skip('kubeconfig', `dry run: would write ${opts.kubeconfigPath} (0600)${opts.mergeKubeconfig ? ` and merge it into ${opts.mergeKubeconfig}` : ''}`);
      // The control plane does not answer yet: what will be created in it, by name.
      const inControlPlane = [...bundle.crds, ...agentRbac(), namespaceObject(ns), { apiVersion: 'v1', kind: 'Secret', metadata: { name: INIT_KUBECONFIG_SECRET, namespace: ns } } as Manifest];
      record(opts.controlPlaneContext, inControlPlane.map((o) => ({ ref: objectRef(o), action: 'created' as const })));
      runner.skip('crds', `dry run: ${inControlPlane.length} objects to create in the control plane (${opts.controlPlaneContext})`);
      await dryRunWorkloads(opts, bundle, runner, applyAll, record);
      runner.skip('fleet', `dry run: would record the fleet in ${opts.fleetFile}`);
      result.ok = true;
      return result;
    }

    await runner.run('components', (row) => waitComponents(opts, row, signal));

    const server = `https://${address!.ip ?? address!.hostname}:443`;
    cpKc = new KubeConfig();
    cpKc.loadFromString(adminKubeconfig(certs!, server, opts.controlPlaneContext));
    await runner.run('endpoint', async (row) => {
      const version = await retryUntil(() => makeClient(cpKc!, VersionApi, 5_000).getCode(), {
        timeoutMs: TIMEOUTS.endpoint,
        ...(signal ? { signal } : {}),
        onError: (line) => row.progress(`not yet: ${line}`),
      }).catch((err: unknown) => {
        throw new StepError(err instanceof Error ? err.message : String(err), HINTS.endpoint);
      });
      return `${version.gitVersion} at ${server}`;
    });

    await runner.run('kubeconfig', async () => {
      fs.mkdirSync(path.dirname(opts.kubeconfigPath), { recursive: true });
      const tmp = `${opts.kubeconfigPath}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, adminKubeconfig(certs!, server, opts.controlPlaneContext), { mode: 0o600 });
      fs.renameSync(tmp, opts.kubeconfigPath);
      result.kubeconfigPath = opts.kubeconfigPath;
      if (!opts.mergeKubeconfig) return `context ${opts.controlPlaneContext} in ${opts.kubeconfigPath}`;
      const merged = mergeKubeconfigFile(opts.mergeKubeconfig, opts.kubeconfigPath);
      return `context ${opts.controlPlaneContext} in ${opts.kubeconfigPath}; ${merged}`;
    });

    await runner.run('crds', async (row) => {
      const cp = new Applier(cpKc!);
      const initSecret: Manifest = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: INIT_KUBECONFIG_SECRET, namespace: ns, labels: MANAGED_LABELS },
        type: 'Opaque',
        data: { kubeconfig: Buffer.from(initKubeconfig(certs!, server)).toString('base64') },
      };
      const results = await applyAll(cp, opts.controlPlaneContext, [...bundle.crds, ...agentRbac(), namespaceObject(ns), initSecret]);
      row.progress('waiting for the CRDs to be Established');
      const names = new Set(bundle.crds.map((c) => c.metadata.name));
      await waitFor<{ metadata?: { name?: string }; status?: { conditions?: { type: string; status: string }[] } }>({
        kc: cpKc!,
        path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        timeoutMs: TIMEOUTS.crds,
        ...(signal ? { signal } : {}),
        check: (items) => {
          const established = items.filter((c) => names.has(c.metadata?.name ?? '') && c.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True'));
          return { done: established.length === names.size, detail: `${established.length}/${names.size} Established` };
        },
        onProgress: (d) => row.progress(d),
      });
      return `${[...names].map((n) => n.split('.')[0]).join(', ')} Established; ${summarize(results, false)}`;
    });

    await runner.run('ready', async (row) => {
      const detail = await waitComponents(opts, row, signal);
      return `components ${detail}; CRDs Established; API answering`;
    });

    for (const w of opts.workloads) {
      await runner.run(`agent:${w.context}`, (row) => connectWorkload(opts, w, bundle, cpKc!, row, applyAll, signal));
    }

    await runner.run('fleet', async (row) => {
      const fleet: FleetConfig = {
        hostingContext: opts.hosting.context,
        controlPlaneContext: opts.controlPlaneContext,
        namespace: ns,
        workloads: opts.workloads.map((w) => ({ context: w.context, clusterName: w.clusterName })),
      };
      writeFleetFile(opts.fleetFile, fleet, { kubeconfig: opts.kubeconfigPath });
      row.progress('checking the fleet as `fleetdeck status` does');
      const kc = combinedConfig([opts.hosting, ...opts.workloads], cpKc!, opts.controlPlaneContext);
      const contexts = contextInfos(kc).filter((c) => [opts.hosting.context, opts.controlPlaneContext, ...opts.workloads.map((x) => x.context)].includes(c.name));
      const state = await collectStatus(kc, contexts, 20_000, fleet);
      result.status = fleetChecklist(state);
      // The Status checklist under the row, as `fleetdeck status` prints it.
      for (const item of result.status) {
        const child = row.child(`status:${item.id}`, item.label);
        child.set(item.state, item.detail, item.hint);
      }
      const healthy = fleetHealthy(state);
      const problems = result.status.filter((i) => i.state === 'fail' || i.state === 'warn').map((i) => i.label);
      if (!healthy) throw new StepError(`the fleet is not healthy: ${problems.join('; ')}`, 'run fleetdeck status for the whole checklist');
      // Warnings (e.g. no SchedulePolicy yet, as the guide's own status shows after an install) are
      // the operator's next steps, shown with their hints in the checklist below: the install is done.
      return `recorded in ${opts.fleetFile}; status healthy${problems.length ? ` (${problems.length} warning${problems.length > 1 ? 's' : ''} below)` : ''}`;
    });
    result.ok = true;
  } catch (err) {
    if (!(err instanceof StepError) && runner.items().every((i) => i.state !== 'fail')) {
      // A failure before any step ran (e.g. the bundle): say so on the first row.
      await runner.run('namespace', () => Promise.reject(err)).catch(() => {});
    }
    result.ok = false;
  } finally {
    runner.stop();
    result.steps = runner.items();
  }
  return result;
}

function namespaceObject(ns: string): Manifest {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: MANAGED_LABELS } };
}

/** In the control plane: what the agents' bootstrap identity (group nova:agents) may do. */
export function agentRbac(): Manifest[] {
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'nova-agent', labels: MANAGED_LABELS },
      rules: [
        { apiGroups: ['cluster.elotl.co'], resources: ['clusters', 'clusters/status'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
        { apiGroups: ['policy.elotl.co'], resources: ['schedulepolicies', 'schedulegroups'], verbs: ['get', 'list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'nova-agent', labels: MANAGED_LABELS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'nova-agent' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'nova:agents' }],
    },
  ];
}

async function readCertSecrets(core: CoreV1Api, ns: string): Promise<Record<string, V1Secret>> {
  const found: Record<string, V1Secret> = {};
  for (const name of CERT_SECRET_NAMES) {
    try {
      found[name] = await core.readNamespacedSecret({ name, namespace: ns });
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
  }
  return found;
}

/** Waits until every component has its desired replicas Running and Ready; one child row each. */
async function waitComponents(opts: InstallOptions, row: RowControl, signal?: AbortSignal): Promise<string> {
  const desired = opts.ha ? 3 : 1;
  const rows = COMPONENTS.map((c) => ({ c, row: row.child(c.id, c.label) }));
  await Promise.all(
    rows.map(async ({ c, row: child }) => {
      child.set('running', `0/${desired}`);
      try {
        const detail = await waitFor<V1Pod>({
          kc: opts.hosting.kc,
          path: `/api/v1/namespaces/${opts.namespace}/pods`,
          labelSelector: c.selector,
          timeoutMs: c.id === 'etcd' ? TIMEOUTS.etcd : TIMEOUTS.component,
          ...(signal ? { signal } : {}),
          check: (pods) => {
            const live = pods.filter((p) => !p.metadata?.deletionTimestamp);
            const states = live.map((p) => podState(p));
            // A pod needs no attention (no problem) when it is Running and Ready.
            const ready = states.filter((s) => s.phase === 'Running' && !s.problem).length;
            const waiting = states.find((s) => s.problem)?.problem?.reason;
            if (c.id === 'etcd' && live.some((p) => p.status?.phase === 'Pending' && /Unschedulable|unbound|PersistentVolumeClaim/i.test(JSON.stringify(p.status?.conditions ?? [])))) {
              child.hint(HINTS.etcdPending);
            }
            return { done: ready >= desired, detail: `${ready}/${desired}${waiting ? ` (${waiting})` : ''}` };
          },
          onProgress: (d) => child.progress(d),
        });
        child.set('ok', `Running ${detail}`);
      } catch (err) {
        child.set('fail', err instanceof Error ? err.message : String(err), c.id === 'etcd' ? HINTS.etcdPending : undefined);
        throw new StepError(`${c.label}: ${err instanceof Error ? err.message : String(err)}`, c.id === 'etcd' ? HINTS.etcdPending : `kubectl --context=${opts.hosting.context} -n ${opts.namespace} describe pods -l ${c.selector}`);
      }
    }),
  );
  return `${COMPONENTS.length}/${COMPONENTS.length} running`;
}

async function dryRunWorkloads(
  opts: InstallOptions,
  bundle: Bundle,
  runner: StepRunner,
  applyAll: (a: Applier, context: string, objs: Manifest[]) => Promise<ApplyResult[]>,
  record: (context: string, results: ApplyResult[]) => void,
): Promise<void> {
  for (const w of opts.workloads) {
    await runner.run(`agent:${w.context}`, async () => {
      const objs = [namespaceObject(opts.namespace), ...forNamespace(withClusterName(bundle.agent, w.clusterName), opts.namespace)];
      const a = new Applier(w.kc);
      const results = await applyAll(a, w.context, objs);
      const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: INIT_KUBECONFIG_SECRET, namespace: opts.namespace } } as Manifest;
      const copy = { ref: objectRef(secret), action: ((await a.read(secret)) ? 'configured' : 'created') as ApplyResult['action'] };
      results.push(copy);
      record(w.context, [copy]);
      return `dry run: ${summarize(results, true)}`;
    });
  }
}

/** One workload cluster: namespace, the init kubeconfig, the agent, and its Cluster Ready in the control plane. */
async function connectWorkload(
  opts: InstallOptions,
  w: WorkloadTarget,
  bundle: Bundle,
  cpKc: KubeConfig,
  row: RowControl,
  applyAll: (a: Applier, context: string, objs: Manifest[]) => Promise<ApplyResult[]>,
  signal?: AbortSignal,
): Promise<string> {
  const ns = opts.namespace;
  const applier = new Applier(w.kc);
  const steps = {
    ns: row.child(`${w.context}:ns`, 'Namespace'),
    secret: row.child(`${w.context}:secret`, 'Init kubeconfig copied from the control plane'),
    agent: row.child(`${w.context}:agent`, 'Agent applied'),
    ready: row.child(`${w.context}:ready`, 'Agent Ready'),
    cluster: row.child(`${w.context}:cluster`, `Cluster ${w.clusterName} registered and Ready`),
  };
  steps.ns.set('running');
  steps.ns.set('ok', (await applyAll(applier, w.context, [namespaceObject(ns)]))[0]?.action);

  steps.secret.set('running');
  const source = await makeClient(cpKc, CoreV1Api).readNamespacedSecret({ name: INIT_KUBECONFIG_SECRET, namespace: ns });
  const copy: Manifest = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: INIT_KUBECONFIG_SECRET, namespace: ns, labels: MANAGED_LABELS },
    type: source.type ?? 'Opaque',
    data: source.data ?? {},
  };
  steps.secret.set('ok', (await applyAll(applier, w.context, [copy]))[0]?.action);

  steps.agent.set('running');
  const agentObjs = forNamespace(withClusterName(bundle.agent, w.clusterName), ns);
  steps.agent.set('ok', summarize(await applyAll(applier, w.context, agentObjs), false));

  steps.ready.set('running');
  const deployment = agentObjs.find((o) => o.kind === 'Deployment');
  try {
    const detail = await waitFor<{ metadata?: { name?: string }; spec?: { replicas?: number }; status?: { readyReplicas?: number } }>({
      kc: w.kc,
      path: `/apis/apps/v1/namespaces/${ns}/deployments`,
      fieldSelector: `metadata.name=${deployment?.metadata.name ?? 'nova-agent'}`,
      timeoutMs: TIMEOUTS.agent,
      ...(signal ? { signal } : {}),
      check: (items) => {
        const d = items[0];
        const want = d?.spec?.replicas ?? 1;
        const have = d?.status?.readyReplicas ?? 0;
        return { done: !!d && have >= want, detail: `${have}/${want} ready` };
      },
      onProgress: (d) => steps.ready.progress(d),
    });
    steps.ready.set('ok', detail);
  } catch (err) {
    steps.ready.set('fail', err instanceof Error ? err.message : String(err));
    throw new StepError(`agent in ${w.context} not Ready: ${err instanceof Error ? err.message : String(err)}`, `kubectl --context=${w.context} -n ${ns} describe deploy/nova-agent`);
  }

  steps.cluster.set('running');
  try {
    await waitFor<{ metadata?: { name?: string }; status?: { conditions?: { type: string; status: string }[] } }>({
      kc: cpKc,
      path: '/apis/cluster.elotl.co/v1alpha1/clusters',
      fieldSelector: `metadata.name=${w.clusterName}`,
      timeoutMs: TIMEOUTS.agent,
      ...(signal ? { signal } : {}),
      check: (items) => {
        const ready = items[0]?.status?.conditions?.find((c) => c.type === 'Ready');
        return { done: ready?.status === 'True', detail: items[0] ? `registered, Ready=${ready?.status ?? 'unknown'}` : 'not registered yet' };
      },
      onProgress: (d) => steps.cluster.progress(d),
    });
    steps.cluster.set('ok', 'Ready');
  } catch (err) {
    steps.cluster.set('fail', err instanceof Error ? err.message : String(err), HINTS.agent.replace('<workload>', w.context).replace('<namespace>', ns));
    throw new StepError(`cluster ${w.clusterName} did not register`, HINTS.agent.replace('<workload>', w.context).replace('<namespace>', ns));
  }
  return `${w.clusterName} Ready in the control plane`;
}

/** One KubeConfig holding the install's contexts and the control plane's (for the final status). */
function combinedConfig(targets: { context: string; kc: KubeConfig }[], cpKc: KubeConfig, cpContext: string): KubeConfig {
  const kc = new KubeConfig();
  const clusters = new Map();
  const users = new Map();
  const contexts = new Map();
  for (const t of [...targets.map((x) => x.kc), cpKc]) {
    for (const c of t.getClusters()) clusters.set(c.name, c);
    for (const u of t.getUsers()) users.set(u.name, u);
    for (const c of t.getContexts()) contexts.set(c.name, c);
  }
  kc.loadFromOptions({ clusters: [...clusters.values()], users: [...users.values()], contexts: [...contexts.values()], currentContext: cpContext });
  return kc;
}

