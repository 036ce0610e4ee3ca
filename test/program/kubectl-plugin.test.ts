import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { buildProgram, main } from '../../src/main.js';
import { commandName, startedAsKubectlPlugin } from '../../src/program/invocation.js';
import { kubectlPluginArgs, REFUSED_KUBECTL_FLAGS } from '../../src/program/kubectl-plugin.js';

const args = (...a: string[]) => kubectlPluginArgs(buildProgram(), a);

/** The one line a refused flag gives (the UsageError's message), or the arguments it let through. */
function outcome(...a: string[]): string | string[] {
  try {
    return args(...a);
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
}

describe("kubectl's global flags in `kubectl fleetdeck …`", () => {
  it('passes the ones fleetdeck has as they are, wherever they stand', () => {
    const given = ['--kubeconfig', '/k', 'status', '--context=a', '--context', 'b', '--request-timeout', '30s', '-o', 'json'];
    expect(args(...given)).toEqual(given);
    expect(args('--namespace', 'elotl', 'status')).toEqual(['--namespace', 'elotl', 'status']);
  });

  it("reads kubectl's -n as the fleet's --namespace, in each spelling kubectl takes", () => {
    expect(args('-n', 'fleet-a', 'status')).toEqual(['--namespace', 'fleet-a', 'status']);
    expect(args('status', '-n=fleet-a')).toEqual(['status', '--namespace=fleet-a']);
    expect(args('status', '-nfleet-a')).toEqual(['status', '--namespace=fleet-a']);
    expect(
      buildProgram()
        .parse(args('status', '-n', 'fleet-a'), { from: 'user' })
        .opts().namespace,
    ).toBe('fleet-a');
  });

  it("leaves -n to a command that has its own: logs' -n is the pods' namespace, as in kubectl logs", () => {
    expect(args('logs', '-n', 'kube-system', 'pod/x')).toEqual(['logs', '-n', 'kube-system', 'pod/x']);
  });

  it('takes -n before the command as the namespace the command works in: logs reads the pods from it', () => {
    expect(args('-n', 'kube-system', 'logs', 'pod/x')).toEqual(['--namespace', 'kube-system', 'logs', 'pod/x']);
    const logs = buildProgram().commands.find((c) => c.name() === 'logs');
    let seen: string | undefined;
    logs?.action((_target, _opts, cmd) => {
      seen = cmd.optsWithGlobals().namespace;
    });
    logs?.parent?.parse(args('-n', 'kube-system', 'logs', 'pod/x'), { from: 'user' });
    expect(seen).toBe('kube-system');
  });

  it('reads the value of an option as a value, even when it looks like a command or a flag', () => {
    expect(args('--context', 'logs', 'status', '-n', 'a')).toEqual(['--context', 'logs', 'status', '--namespace', 'a']);
    expect(args('approve', '--message', '--user', '--yes')).toEqual(['approve', '--message', '--user', '--yes']);
  });

  it('refuses --cluster and --user in one line that says why and what to use', () => {
    expect(outcome('status', '--user', 'admin')).toBe(
      "kubectl's --user is not honoured by kubectl fleetdeck: fleetdeck works on several contexts at once, each with the cluster and user its kubeconfig context names; choose contexts with --context",
    );
    expect(outcome('--cluster=prod', 'status')).toMatch(/^kubectl's --cluster is not honoured by kubectl fleetdeck: .*--context$/);
  });

  it("refuses kubectl's connection and credential flags, and settings fleetdeck lacks, in every spelling", () => {
    expect(outcome('status', '-s', 'https://x:6443')).toMatch(/^kubectl's -s is not honoured .*--kubeconfig/);
    expect(outcome('status', '--token=abc')).toMatch(/^kubectl's --token is not honoured/);
    expect(outcome('status', '--insecure-skip-tls-verify')).toMatch(/^kubectl's --insecure-skip-tls-verify is not honoured/);
    expect(outcome('-v6', 'status')).toMatch(/^kubectl's -v is not honoured by kubectl fleetdeck: fleetdeck has no such setting$/);
    expect(outcome('status', '--v=6')).toMatch(/^kubectl's --v is not honoured/);
    // The message names the flag, never its value (a token stays off the terminal).
    expect(outcome('status', '--token=s3cret')).not.toContain('s3cret');
  });

  it('lets a command keep a flag of its own that kubectl also has: preflight --server', () => {
    expect(args('preflight', '--server', 'https://cp:6443')).toEqual(['preflight', '--server', 'https://cp:6443']);
    expect(outcome('status', '--server', 'https://cp:6443')).toMatch(/^kubectl's --server is not honoured/);
  });

  it('leaves what follows -- and values that only look like flags alone', () => {
    expect(args('logs', 'pod/x', '--tail', '-1')).toEqual(['logs', 'pod/x', '--tail', '-1']);
    expect(args('status', '--', '--user')).toEqual(['status', '--', '--user']);
  });

  it('names every global flag of `kubectl options` fleetdeck does not have', () => {
    const kubectlGlobals = [
      ...['--as', '--as-group', '--as-uid', '--cache-dir', '--certificate-authority', '--client-certificate', '--client-key'],
      ...['--cluster', '--disable-compression', '--insecure-skip-tls-verify', '--log-flush-frequency', '--match-server-version'],
      ...['--password', '--profile', '--profile-output', '-s', '--server', '--tls-server-name', '--token', '--user', '--username'],
      ...['-v', '--v', '--vmodule', '--warnings-as-errors'],
    ];
    for (const flag of kubectlGlobals) expect(REFUSED_KUBECTL_FLAGS.has(flag), flag).toBe(true);
    for (const honoured of ['--kubeconfig', '--context', '--request-timeout', '-n', '--namespace']) {
      expect(REFUSED_KUBECTL_FLAGS.has(honoured), honoured).toBe(false);
    }
  });
});

describe('started as kubectl fleetdeck', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says `kubectl fleetdeck` in its usage, and refuses an unhonoured kubectl flag with exit code 2', async () => {
    startedAsKubectlPlugin();
    expect(commandName()).toBe('kubectl fleetdeck');
    const help = buildProgram().helpInformation();
    expect(help).toMatch(/^Usage: kubectl fleetdeck \[options\] \[command\]/);
    expect(
      buildProgram()
        .commands.find((c) => c.name() === 'status')
        ?.helpInformation(),
    ).toMatch(/^Usage: kubectl fleetdeck status/);

    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
      err.push(String(s));
      return true;
    });
    expect(await main(['status', '--user', 'admin'])).toBe(2);
    expect(await main(['status', '--frobnicate'])).toBe(2);
    expect(err).toEqual([
      expect.stringMatching(/^fleetdeck: kubectl's --user is not honoured by kubectl fleetdeck: .*\n$/),
      "fleetdeck: unknown option '--frobnicate'; run `kubectl fleetdeck --help` for usage\n",
    ]);
  });
});
