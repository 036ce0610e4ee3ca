/**
 * The bundle on the install's plan, on the sandbox: the built-in reference bundle said for what
 * it is and asked about on a cluster that is not recognised as the sandbox (a copy of the
 * sandbox's kubeconfig elsewhere); a release-like install/ directory whose bases are kustomize
 * overlays renaming every image installs, runs those images and the patch of its overlays/cp-ha,
 * and `status` reads it as it reads the built-in bundle.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppsV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { DEFAULT_BUNDLE_DIR, loadBundle } from '../../src/install/bundle.js';
import { summarizeBundle } from '../../src/install/bundle-summary.js';
import { runCli } from '../helpers/cli/cli.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const sandboxDir = sandbox().dir;
const NS = 'nova-bundle';
const WORKLOAD = 'kind-workload-1';

/** The release's images: other registries, names and tags, each set by a kustomization's `images:`. */
const RELEASE_IMAGES = {
  'registry.k8s.io/etcd': ['registry.example.com/nova/etcd', '3.5.9-nova.1'],
  'registry.k8s.io/kube-apiserver': ['registry.example.com/nova/kube-apiserver', 'v1.28.4-nova.1'],
  'registry.k8s.io/kube-controller-manager': ['registry.example.com/nova/kube-controller-manager', 'v1.28.4-nova.1'],
  'registry.k8s.io/kube-scheduler': ['registry.example.com/elotl/nova-scheduler', 'v0.8.0'],
  'elotl/nova-agent': ['registry.example.com/elotl/nova-agent', 'v0.8.0'],
} as const;
const NEW_IMAGES = Object.values(RELEASE_IMAGES).map(([name, tag]) => `${name}:${tag}`);

let tmp: string;
let release: string;
let env: NodeJS.ProcessEnv;

const imagesYaml = (names: (keyof typeof RELEASE_IMAGES)[]) =>
  `images:\n${names.map((n) => `  - name: ${n}\n    newName: ${RELEASE_IMAGES[n][0]}\n    newTag: ${RELEASE_IMAGES[n][1]}\n`).join('')}`;

/**
 * A release's install/ directory: the shared manifests in components/, base/control-plane and
 * base/agent kustomize overlays of them (resources, images, commonLabels), the guide's
 * apiserver.yaml and nova_crds.yaml beside the control plane's, and the guide's overlays, those
 * of the workload clusters pinning the agent's image.
 */
function releaseDir(root: string): string {
  const dir = path.join(root, 'nova-v0.8.0', 'install');
  fs.cpSync(path.join(DEFAULT_BUNDLE_DIR, 'base', 'control-plane'), path.join(dir, 'components', 'control-plane'), { recursive: true });
  fs.cpSync(path.join(DEFAULT_BUNDLE_DIR, 'base', 'agent'), path.join(dir, 'components', 'agent'), { recursive: true });
  fs.cpSync(path.join(DEFAULT_BUNDLE_DIR, 'overlays'), path.join(dir, 'overlays'), { recursive: true });
  const cp = path.join(dir, 'base', 'control-plane');
  fs.mkdirSync(cp, { recursive: true });
  for (const f of ['apiserver.yaml', 'nova_crds.yaml']) fs.renameSync(path.join(dir, 'components', 'control-plane', f), path.join(cp, f));
  fs.writeFileSync(
    path.join(cp, 'kustomization.yaml'),
    `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../../components/control-plane\ncommonLabels:\n  release.example.com/version: v0.8.0\n${imagesYaml(['registry.k8s.io/etcd', 'registry.k8s.io/kube-apiserver', 'registry.k8s.io/kube-controller-manager', 'registry.k8s.io/kube-scheduler'])}`,
  );
  const agent = path.join(dir, 'base', 'agent');
  fs.mkdirSync(agent, { recursive: true });
  fs.writeFileSync(
    path.join(agent, 'kustomization.yaml'),
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../../components/agent\n',
  );
  // overlays/cp-ha patches more than HA: a flag for the controller manager (a JSON 6902 patch).
  fs.writeFileSync(
    path.join(dir, 'overlays', 'cp-ha', 'cm-flag.yaml'),
    '- op: add\n  path: /spec/template/spec/containers/0/args/-\n  value: --concurrent-gc-syncs=40\n',
  );
  fs.appendFileSync(
    path.join(dir, 'overlays', 'cp-ha', 'kustomization.yaml'),
    '  - path: cm-flag.yaml\n    target:\n      kind: Deployment\n      name: controller-manager\n',
  );
  // The agent's image pinned where the guide's `kubectl apply -k overlays/workload-cluster-N` takes it from.
  for (const n of [1, 2])
    fs.appendFileSync(path.join(dir, 'overlays', `workload-cluster-${n}`, 'kustomization.yaml'), imagesYaml(['elotl/nova-agent']));
  return dir;
}

const install = (extra: string[], kc = kubeconfig) =>
  runCli(['install', '--kubeconfig', kc, '--hosting-context', 'kind-cp', '--workload', WORKLOAD, '--namespace', NS, '--no-ha', ...extra], {
    env,
    timeoutMs: 900_000,
  });
const uninstall = () =>
  runCli(['uninstall', '--kubeconfig', kubeconfig, '--hosting-context', 'kind-cp', '--workload', WORKLOAD, '--namespace', NS, '--yes'], {
    env,
    timeoutMs: 600_000,
  });

/** `fleetdeck status -o json` of the recorded fleet: each row's id, label and state. */
async function checklist(): Promise<{ id: string; label: string; state: string }[]> {
  const r = await runCli(['status', '--kubeconfig', kubeconfig, '-o', 'json'], { env, timeoutMs: 120_000 });
  const out = JSON.parse(r.stdout) as { checklist: { id: string; label: string; state: string }[] };
  return out.checklist.map(({ id, label, state }) => ({ id, label, state }));
}

async function runningImages(context: string): Promise<string[]> {
  const apps = makeClient(configForContext(loadKubeconfig({ kubeconfig }).config, context), AppsV1Api);
  const [deps, sets] = await Promise.all([
    apps.listNamespacedDeployment({ namespace: NS }),
    apps.listNamespacedStatefulSet({ namespace: NS }),
  ]);
  return [...deps.items, ...sets.items].flatMap((w) => w.spec?.template.spec?.containers.map((c) => c.image ?? '') ?? []).sort();
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-install-bundle-'));
  release = releaseDir(tmp);
  // No sandbox recorded where fleetdeck looks by default: only the one beside the kubeconfig counts.
  env = { FLEETDECK_FLEET_FILE: path.join(tmp, 'fleet.yaml'), FLEETDECK_SANDBOX_DIR: path.join(tmp, 'no-sandbox') };
});

afterAll(async () => {
  await uninstall();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the reference bundle on the plan', () => {
  it('on the sandbox: named, said to be the reference one, its images listed, nothing asked', async () => {
    expect(path.dirname(kubeconfig)).toBe(sandboxDir);
    const text = await install(['--dry-run']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Bundle: fleetdeck reference bundle (built-in)');
    expect(text.stdout).toMatch(
      /not a Nova release: upstream Kubernetes images, kube-scheduler as a stand-in for nova-scheduler, and the agent image elotl\/nova-agent:v0\.7\.0/,
    );
    expect(text.stdout).toContain('Images: registry.k8s.io/etcd:3.5.9-0');
    expect(text.stdout).toContain('        elotl/nova-agent:v0.7.0');
    expect(text.stdout).not.toContain('not the fleetdeck sandbox');

    const json = await install(['--dry-run', '-o', 'json']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout).bundle).toEqual({
      name: 'fleetdeck reference bundle',
      source: 'built-in',
      reference: true,
      // The built-in bundle's images, as its unit test lists them
      images: summarizeBundle(await loadBundle()).images,
      notSandbox: [],
    });
  });

  it('on a cluster not recognised as the sandbox (a copied kubeconfig): said, and asked for', async () => {
    const copy = path.join(tmp, 'elsewhere', 'config');
    fs.mkdirSync(path.dirname(copy));
    fs.copyFileSync(kubeconfig, copy);
    const line =
      "the reference bundle would be installed on kind-cp, kind-workload-1, which are not the fleetdeck sandbox: for a Nova release, pass --bundle DIR with the release's install/ directory";

    const dry = await install(['--dry-run'], copy);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`Note: ${line}.`);

    // Nobody to answer (no terminal) and no --yes: refused in one line naming it, nothing changed
    const refused = await install([], copy);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      "fleetdeck: install would put the reference bundle on kind-cp, kind-workload-1, not the fleetdeck sandbox: confirm with --yes, or pass --bundle DIR with a Nova release's install/ directory",
    ]);
    expect(refused.stdout).toContain(`Note: ${line}.`);
    expect(await runningImages('kind-cp')).toEqual([]);

    const json = await install(['--dry-run', '-o', 'json'], copy);
    expect(json.code).toBe(0);
    expect(json.stderr.trim()).toBe(`fleetdeck: note: ${line}`);
    expect(JSON.parse(json.stdout).bundle).toMatchObject({ reference: true, notSandbox: ['kind-cp', WORKLOAD] });
  });
});

describe('a release install/ directory of kustomize overlays', () => {
  it('installs with its own images, and status reads it as it reads the built-in bundle', async () => {
    // The built-in bundle first: its status checklist
    const ref = await install(['--yes']);
    expect(ref.code, ref.stdout + ref.stderr).toBe(0);
    const builtIn = await checklist();
    expect(builtIn.find((i) => i.id === 'nova/title')).toBeDefined();
    const un = await uninstall();
    expect(un.code, un.stdout + un.stderr).toBe(0);

    // The release: the plan names it and its images, nothing is asked about
    const r = await install(['--yes', '--bundle', release, '-o', 'json']);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { ok: boolean; bundle: unknown };
    expect(out.ok, r.stdout).toBe(true);
    // (in the order kustomize writes the objects: by kind)
    const bundle = out.bundle as { images: string[] };
    expect(bundle).toMatchObject({ name: 'nova-v0.8.0/install', source: release, reference: false });
    expect(Object.keys(bundle).sort()).toEqual(['images', 'name', 'overlays', 'reference', 'source']);
    expect(bundle).toMatchObject({
      overlays: [
        { name: 'overlays/cp-ha', fields: ['resources', 'patches'] },
        { name: 'overlays/workload-cluster-1', fields: ['namespace', 'resources', 'patches', 'images'] },
      ],
    });
    expect([...bundle.images].sort()).toEqual([...NEW_IMAGES].sort());

    // Its images run, and its labels are on its objects
    expect(await runningImages('kind-cp')).toEqual(NEW_IMAGES.slice(0, 4).sort());
    expect(await runningImages(WORKLOAD)).toEqual([NEW_IMAGES[4]]);
    const apps = makeClient(configForContext(loadKubeconfig({ kubeconfig }).config, 'kind-cp'), AppsV1Api);
    const api = await apps.readNamespacedDeployment({ name: 'apiserver', namespace: NS });
    expect(api.metadata?.labels?.['release.example.com/version']).toBe('v0.8.0');
    // The overlay's patch is on the installed controller manager, the install's HA choice (--no-ha) kept
    const cm = await apps.readNamespacedDeployment({ name: 'controller-manager', namespace: NS });
    expect(cm.spec?.template.spec?.containers[0]?.args).toContain('--concurrent-gc-syncs=40');
    expect(cm.spec?.replicas).toBe(1);

    // status: the same checklist, row for row
    expect(await checklist()).toEqual(builtIn);
  });
});
