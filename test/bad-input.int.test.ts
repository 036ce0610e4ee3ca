import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../src/kube/config/kubeconfig.js';
import { mutatingEvents, readAuditEvents } from '../src/sandbox/audit.js';
import { ADMIN_USER } from '../src/sandbox/credentials.js';
import { readState } from '../src/sandbox/state.js';
import { type BadInputFiles, badInputFiles } from './helpers/cli/bad-input-files.js';
import { runCli } from './helpers/cli/cli.js';
import { sandbox } from './helpers/sandbox/fleet.js';

/**
 * The bad-input corpus: what a stranger types, and what a stranger's kubeconfig holds. For every
 * case: the exit code the README documents, one line on stderr saying what is wrong (or, for the
 * fleet-wide `status`, the reason in its report), never a stack trace, and — checked once at the
 * end in the API servers' audit logs — nothing changed in any cluster.
 */
type Case = {
  name: string;
  args: (f: BadInputFiles) => string[];
  code: number;
  env?: (f: BadInputFiles) => NodeJS.ProcessEnv;
} & (
  | {
      /** The one stderr line. */
      err: RegExp;
      out?: never;
    }
  | {
      /** For reports on stdout (status): what the report says; stderr then stays empty. */
      out: RegExp;
      err?: never;
    }
);

const W1 = ['--kubeconfig', sandbox().kubeconfig, '--context', 'kind-workload-1'];
/** A node of kind-workload-1 (other tests replace nodes: the name is looked up when the corpus starts). */
let NODE = '';
const create =
  (...more: string[]) =>
  () => ['rollout', 'create', ...W1, '--node', NODE, '--yes', ...more];
const broken =
  (context: string, ...cmd: string[]) =>
  (f: BadInputFiles) => [...cmd, '--kubeconfig', f.broken, '--context', context];
const estimate = (...more: string[]) => ['storage', 'estimate', ...W1, ...more];
const usage = (name: string, args: string[] | ((f: BadInputFiles) => string[]), err: RegExp): Case => ({
  name,
  args: typeof args === 'function' ? args : () => args,
  code: 2,
  err,
});

const CASES: Case[] = [
  // The command line itself.
  usage('an unknown command', ['frobnicate'], /unknown command 'frobnicate'/),
  usage('an unknown subcommand', ['rollout', 'frobnicate'], /unknown command 'rollout frobnicate'/),
  usage('an unknown option', ['--frobnicate'], /unknown option '--frobnicate'/),
  usage('an unknown output format', ['status', '-o', 'xml'], /'xml' is invalid.*text, json, yaml/),
  usage('an option without its value', ['status', '--kubeconfig'], /--kubeconfig <file>' argument missing/),
  usage(
    'a negative --max-unavailable',
    create('--max-unavailable', '-1'),
    /--max-unavailable.*out of range \(a whole number from 1 to 1000\)/,
  ),
  usage('a word for --max-unavailable', create('--max-unavailable', 'two'), /--max-unavailable.*"two" is not a whole number/),
  usage('--max-unavailable 0', create('--max-unavailable', '0'), /--max-unavailable.*out of range \(a whole number from 1 to 1000\)/),
  usage('a bad --timeout', create('--timeout', '5x'), /--timeout.*5x/),
  usage('a negative --health-interval', create('--health-interval', '-5s'), /--health-interval/),
  usage('--health-passes 0', create('--health-passes', '0'), /--health-passes/),
  usage('--priority before any selector', () => ['rollout', 'create', ...W1, '--priority', '1', '--node', NODE], /--priority/),
  usage('a selector that does not parse', ['rollout', 'create', ...W1, '--selector', 'zone in (a', '--yes'], /selector/),
  usage('an unknown --replace mode', create('--replace', 'banana'), /'banana' is invalid.*wait, delete-node, uncordon/),
  usage('a rollout with no nodes', ['rollout', 'create', ...W1, '--yes'], /--selector|--node|-f/),
  usage(
    'a runner namespace that is no name',
    create('--in-cluster', '--runner-namespace', 'Bad_NS'),
    /--runner-namespace "Bad_NS" is not a namespace name/,
  ),
  usage('cleanup without --yes and without a terminal', ['rollout', 'cleanup', ...W1], /confirm with --yes/),
  usage('cleanup with --read-only', ['--read-only', 'rollout', 'cleanup', ...W1, '--yes'], /refused with --read-only/),
  {
    name: 'resume in the cluster of an unknown rollout',
    args: () => ['rollout', 'resume', 'nosuch', ...W1, '--in-cluster', '--yes'],
    code: 1,
    err: /no rollout "nosuch"/,
  },
  usage('a NodeRollout file that is missing', create('-f', '/nonexistent/rollout.yaml'), /\/nonexistent\/rollout\.yaml/),
  { name: 'a NodeRollout file that is not YAML', args: (f) => create('-f', f.rolloutNotYaml)(), code: 2, err: /rollout\.yaml/ },
  usage('resume without a name', ['rollout', 'resume', ...W1], /missing required argument 'name'/),
  usage('abort without a name', ['rollout', 'abort', ...W1], /missing required argument 'name'/),
  usage('a size that is not a number', estimate('--size', 'data=lots'), /--size.*lots/),
  usage('an unknown catalogue', estimate('--catalogue', 'no-such-catalogue'), /no-such-catalogue/),
  { name: 'a catalogue that is not YAML', args: (f) => estimate('--catalogue', f.catalogueNotYaml), code: 2, err: /catalogue\.yaml/ },
  usage('an unknown feature', estimate('--features', 'no-such-feature'), /no-such-feature/),
  { name: '--values over an existing file', args: (f) => estimate('--values', f.existingValues), code: 2, err: /--force/ },
  usage('preflight --min-cpus -1', ['preflight', '--min-cpus', '-1'], /--min-cpus/),
  usage('preflight --min-memory lots', ['preflight', '--min-memory', 'lots'], /--min-memory/),
  usage('preflight --server that is no URL', ['preflight', '--server', 'not a url'], /--server/),
  usage('preflight --root that is missing', ['preflight', '--root', '/nonexistent/root'], /\/nonexistent\/root/),
  usage('install --cert-validity-days 0', ['install', ...W1, '--cert-validity-days', '0'], /--cert-validity-days/),
  usage(
    'install --bundle that is missing',
    ['install', ...W1.slice(0, 2), '--hosting-context', 'kind-cp', '--bundle', '/nonexistent/bundle', '--dry-run'],
    /\/nonexistent\/bundle/,
  ),
  usage('install without a hosting context', ['install', '--kubeconfig', sandbox().kubeconfig, '--yes'], /--hosting-context/),
  usage('approve --auto without --requester', ['approve', ...W1, '--auto', '--signer', 'kubernetes.io/kubelet-serving'], /--requester/),
  usage('approve --deny with nothing to deny', ['approve', ...W1, '--deny', '--yes'], /name|--all-from/),
  usage('sandbox up --workloads -1', ['sandbox', 'up', '--workloads', '-1'], /--workloads/),
  usage('logs without a target', ['logs', ...W1], /give a TARGET .*-l SELECTOR, --agents or --control-plane/),
  usage('logs of a kind without logs', ['logs', ...W1, 'service/web'], /cannot read logs of "service"/),
  usage(
    'logs with a target and -l',
    ['logs', ...W1, 'deploy/web', '-l', 'app=web'],
    /give one of TARGET, -l SELECTOR, --agents or --control-plane/,
  ),
  usage('logs --since 5x', ['logs', ...W1, 'deploy/web', '--since', '5x'], /--since "5x" is not a duration/),
  usage('logs --since-time that is no time', ['logs', ...W1, 'deploy/web', '--since-time', 'yesterday'], /--since-time "yesterday"/),
  usage(
    'logs --since and --since-time',
    ['logs', ...W1, 'deploy/web', '--since', '1m', '--since-time', '2026-11-25T10:00:00Z'],
    /--since or --since-time/,
  ),
  usage('logs --tail ten', ['logs', ...W1, 'deploy/web', '--tail', 'ten'], /--tail "ten"/),
  usage('logs -c with --all-containers', ['logs', ...W1, 'deploy/web', '-c', 'a', '--all-containers'], /-c NAME or --all-containers/),
  usage('certs --warn-days x', ['certs', ...W1, '--warn-days', 'x'], /--warn-days .*"x" is not a whole number/),
  usage('certs with two hosting contexts', ['certs', ...W1, '--context', 'kind-cp'], /certs: give --context once/),
  usage('logs --max-log-requests 0', ['logs', ...W1, '-f', 'deploy/web', '--max-log-requests', '0'], /--max-log-requests "0"/),
  usage('logs -l that does not parse', ['logs', ...W1, '-l', 'zone in (a'], /invalid selector "zone in \(a"/),
  usage('logs -n that is no namespace', ['logs', ...W1, 'deploy/web', '-n', 'Bad_NS'], /"Bad_NS" is not a valid namespace name/),
  usage(
    'logs --agents with a TARGET',
    ['logs', ...W1, '--agents', 'deploy/web'],
    /give one of TARGET, -l SELECTOR, --agents or --control-plane \(got TARGET and --agents\)/,
  ),
  usage(
    'logs --agents without a fleet',
    ['logs', '--kubeconfig', sandbox().kubeconfig, '--agents'],
    /--agents: no fleet defined; run fleetdeck install/,
  ),
  usage(
    'logs --fleet naming what is now --agents',
    ['logs', '--kubeconfig', sandbox().kubeconfig, '--fleet', 'agents'],
    /--fleet names a recorded fleet; the logs of the fleet's agents: fleetdeck logs --agents/,
  ),
  usage(
    'logs on an unknown --context',
    ['logs', '--kubeconfig', sandbox().kubeconfig, '--context', 'nope', 'deploy/web'],
    /context "nope" is not in the kubeconfig/,
  ),
  usage('get of a resource it does not list', ['get', 'deployments', ...W1], /get deployments: not supported; .*nodes or pods/),
  usage('get without a resource', ['get', ...W1], /missing required argument 'resource'/),
  usage('get --all-contexts with --context', ['get', 'nodes', '--all-contexts', ...W1], /give --all-contexts or --context, not both/),
  usage('get -o wide', ['get', 'nodes', ...W1, '-o', 'wide'], /'wide' is invalid.*text, json, yaml/),
  usage(
    'get on an unknown --context',
    ['get', 'pods', '--kubeconfig', sandbox().kubeconfig, '--context', 'nope'],
    /context "nope" is not in the kubeconfig/,
  ),
  usage('a bad --request-timeout', ['status', ...W1, '--request-timeout', '5x'], /--request-timeout.*5x/),
  usage('a negative --request-timeout', ['status', ...W1, '--request-timeout', '-1s'], /--request-timeout/),
  // Kubeconfigs and fleet files.
  usage(
    'a kubeconfig that does not exist',
    ['status', '--kubeconfig', '/nonexistent/kubeconfig'],
    /\/nonexistent\/kubeconfig does not exist/,
  ),
  { name: 'a kubeconfig that is not YAML', args: (f) => ['status', '--kubeconfig', f.notYaml], code: 2, err: /not-yaml\.kubeconfig/ },
  {
    name: 'an empty kubeconfig',
    args: (f) => ['status', '--kubeconfig', f.empty],
    code: 2,
    err: /empty\.kubeconfig|no contexts|no context/,
  },
  { name: 'a kubeconfig that is a list', args: (f) => ['status', '--kubeconfig', f.aList], code: 2, err: /list\.kubeconfig/ },
  { name: 'a context naming a missing user', args: (f) => ['status', '--kubeconfig', f.missingUser], code: 2, err: /user "ghost"/ },
  {
    name: 'a context naming a missing cluster',
    args: (f) => ['status', '--kubeconfig', f.missingCluster],
    code: 2,
    err: /cluster "nowhere"/,
  },
  usage(
    'an unknown --context',
    ['status', '--kubeconfig', sandbox().kubeconfig, '--context', 'nope'],
    /context "nope" is not in the kubeconfig/,
  ),
  usage('rollout list on an unknown --context', ['rollout', 'list', '--kubeconfig', sandbox().kubeconfig, '--context', 'nope'], /"nope"/),
  {
    name: 'a fleet file that is not YAML',
    args: () => ['status', '--kubeconfig', sandbox().kubeconfig],
    env: (f) => ({ FLEETDECK_FLEET_FILE: f.fleetNotYaml }),
    code: 2,
    err: /fleet-not-yaml\.yaml/,
  },
  {
    name: 'a fleet file of the wrong shape',
    args: () => ['status', '--kubeconfig', sandbox().kubeconfig],
    env: (f) => ({ FLEETDECK_FLEET_FILE: f.fleetWrongShape }),
    code: 2,
    err: /fleet-wrong-shape\.yaml/,
  },
  // Credentials that cannot be loaded: a single-context command is a configuration error (2),
  // the fleet-wide status reports the context and exits 1. Never anonymous access.
  { name: 'a missing tokenFile', args: broken('token-file-missing', 'rollout', 'list'), code: 2, err: /no-such-token.*no such file/ },
  { name: 'a missing tokenFile in status', args: broken('token-file-missing', 'status'), code: 1, out: /no-such-token/ },
  { name: 'a missing exec plugin', args: broken('exec-missing', 'rollout', 'list'), code: 2, err: /fleetdeck-no-such-plugin.*not found/ },
  { name: 'a missing exec plugin in status', args: broken('exec-missing', 'status'), code: 1, out: /fleetdeck-no-such-plugin/ },
  {
    name: 'an interactive exec plugin without a terminal',
    args: broken('exec-interactive', 'rollout', 'list'),
    code: 2,
    err: /interactive/,
  },
  { name: 'an unsupported auth-provider', args: broken('auth-provider', 'rollout', 'list'), code: 2, err: /no-such-provider/ },
  { name: 'an expired client certificate', args: broken('cert-expired', 'rollout', 'list'), code: 2, err: /expired/ },
  { name: 'a missing client-key file', args: broken('key-file-missing', 'rollout', 'list'), code: 2, err: /no-such\.key/ },
  // Servers that cannot be used: exit 1 with the reason.
  { name: 'a closed port', args: broken('refused', 'rollout', 'list'), code: 1, err: /connection refused/ },
  { name: 'a closed port on a blocked fetch port', args: broken('bad-port', 'rollout', 'list'), code: 1, err: /connection refused/ },
  { name: 'an untrusted server', args: broken('untrusted', 'rollout', 'list'), code: 1, err: /certificate/ },
  {
    name: 'a server that never answers',
    args: broken('silent', 'rollout', 'list'),
    code: 1,
    err: /no TLS handshake within \d+s \(TCP connect ok\)/,
  },
  {
    name: 'status on a server that never answers',
    args: broken('silent', 'status'),
    code: 1,
    out: /no TLS handshake within \d+s \(TCP connect ok\)/,
  },
  {
    name: 'the read-only user creating a rollout',
    args: () => [
      'rollout',
      'create',
      '--kubeconfig',
      sandbox().readOnlyKubeconfig,
      '--context',
      'kind-workload-1',
      '--node',
      NODE,
      '--yes',
    ],
    code: 1,
    err: /forbidden|cannot|permission/i,
  },
  // Nobody to answer a confirmation.
  usage(
    'install without --yes and no terminal',
    ['install', ...W1.slice(0, 2), '--hosting-context', 'kind-cp', '--workload', 'kind-workload-1'],
    /--yes/,
  ),
  usage(
    'uninstall without --yes and no terminal',
    ['uninstall', ...W1.slice(0, 2), '--hosting-context', 'kind-cp', '--workload', 'kind-workload-1'],
    /--yes/,
  ),
  usage('rollout create without --yes and no terminal', () => ['rollout', 'create', ...W1, '--node', NODE], /--yes/),
  usage('approve without --yes and no terminal', ['approve', ...W1, 'csr-nonexistent'], /--yes|csr-nonexistent/),
  // Backup files that are not one.
  usage(
    'restore of a missing file',
    (f: BadInputFiles) => ['restore', path.join(f.dir, 'no-such-backup.yaml')],
    /backup file .*no-such-backup\.yaml does not exist; give the path of a file fleetdeck backup wrote \(fleetdeck backup -f FILE writes one\)$/,
  ),
  usage(
    'restore of a file that is not YAML',
    (f: BadInputFiles) => ['restore', f.notYaml],
    /backup file .* is not valid YAML \(line \d+: /,
  ),
  usage('restore of an empty file', (f: BadInputFiles) => ['restore', f.empty], /backup file .* holds no object to restore/),
  usage('restore of a YAML list', (f: BadInputFiles) => ['restore', f.aList], /document 1 is not a Kubernetes object/),
  usage('restore of a folder', (f: BadInputFiles) => ['restore', f.dir], /backup file .* cannot be read \(EISDIR\)/),
  usage('restore without a file', ['restore'], /missing required argument 'file'/),
  usage('backup without a fleet', ['backup', ...W1.slice(0, 2)], /backup works on the control plane of a fleet: pass --hosting-context/),
  usage(
    "backup where the control plane's context is in no kubeconfig",
    ['backup', ...W1.slice(0, 2), '--hosting-context', 'kind-cp'],
    /the control plane's context "nova" is in no kubeconfig/,
  ),
  // Names that are not there.
  { name: 'resume of an unknown rollout', args: () => ['rollout', 'resume', 'no-such-rollout', ...W1], code: 1, err: /no-such-rollout/ },
  {
    name: 'abort of an unknown rollout',
    args: () => ['rollout', 'abort', 'no-such-rollout', ...W1, '--yes'],
    code: 1,
    err: /no-such-rollout/,
  },
  {
    name: 'logs of an unknown deployment',
    args: () => ['logs', ...W1, 'deploy/no-such-deploy'],
    code: 1,
    err: /deployment "no-such-deploy" not found/,
  },
  { name: 'logs of an unknown pod', args: () => ['logs', ...W1, 'no-such-pod'], code: 1, err: /pod "no-such-pod" not found/ },
  { name: 'watch of an unknown rollout', args: () => ['rollout', 'watch', 'no-such-rollout', ...W1], code: 1, err: /no-such-rollout/ },
];

let files: BadInputFiles;
let since: Date;
let tmp: string;

beforeAll(async () => {
  // From now on: the files before this one have finished (they run one after the other).
  since = new Date();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-bad-input-'));
  fs.mkdirSync(path.join(tmp, 'home'));
  files = await badInputFiles(tmp, sandbox().kubeconfig, sandbox().dir);
  const kc = configForContext(loadKubeconfig({ kubeconfig: sandbox().kubeconfig }).config, 'kind-workload-1');
  const nodes = await makeClient(kc, CoreV1Api).listNode();
  NODE = nodes.items[0]?.metadata?.name ?? 'no-node';
});
afterAll(async () => {
  await files?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe(`the bad-input corpus (${CASES.length} cases)`, () => {
  /** Runs the case: never a stack trace, the exit code it documents. */
  async function run(c: Case): Promise<{ stdout: string; stderr: string }> {
    const env = { HOME: path.join(tmp, 'home'), KUBECONFIG: '', ...c.env?.(files) };
    const r = await runCli(c.args(files), { env, timeoutMs: 60_000 });
    const all = `${r.stdout}\n${r.stderr}`;
    expect(all).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
    expect(all).not.toMatch(/unexpected error|TypeError|ReferenceError|ENOENT/);
    expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: c.code });
    return r;
  }

  it.each(CASES.flatMap((c) => (c.err ? [[c.name, c.err, c] as const] : [])))('%s', async (_name, err, c) => {
    const lines = (await run(c)).stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^fleetdeck: /);
    expect(lines[0]).toMatch(err);
    expect(lines[0]).not.toMatch(/\.;|\.\.$/);
  });

  it.each(CASES.flatMap((c) => (c.out ? [[c.name, c.out, c] as const] : [])))('%s', async (_name, out, c) => {
    const { stdout } = await run(c);
    expect(stdout).toMatch(out);
    expect(stdout).not.toMatch(/system:anonymous/);
  });

  it('changed nothing in any cluster', () => {
    const state = readState(sandbox().dir);
    if (!state) throw new Error('no sandbox state');
    const events = state.clusters.flatMap((c) => readAuditEvents(c.auditLog, { since, user: ADMIN_USER }));
    const changes = mutatingEvents(events).map((e) => `${e.verb} ${e.requestURI}`);
    expect(changes).toEqual([]);
    const anonymous = state.clusters.flatMap((c) => readAuditEvents(c.auditLog, { since, user: 'system:anonymous' }));
    expect(anonymous.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
  });
});
