import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../helpers/cli/cli.js';

/*
 * Credentials that cannot be loaded, as a user meets them: nothing is sent (the server here is
 * a socket that counts connections), `status` says "credentials" with a hint about the
 * kubeconfig user, and a command on one context stops with one line and exit 2.
 */

let dir: string;
let kubeconfig: string;
let server: net.Server;
let connections = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-creds-cli-'));
  server = net.createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(
    kubeconfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: `https://127.0.0.1:${port}` } }],
      users: [
        { name: 'ci-bot', user: { tokenFile: 'tokens/ci' } },
        {
          name: 'sso',
          user: {
            exec: {
              apiVersion: 'client.authentication.k8s.io/v1beta1',
              command: 'fd-sso-login',
              installHint: 'fd-sso-login is in the ops toolbox: apt install fd-sso',
            },
          },
        },
      ],
      contexts: [
        { name: 'ci', context: { cluster: 'c', user: 'ci-bot' } },
        { name: 'sso', context: { cluster: 'c', user: 'sso' } },
      ],
      'current-context': 'ci',
    }),
  );
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

const tokenFile = () => path.join(dir, 'tokens', 'ci');

describe('credentials that cannot be loaded', () => {
  it('status: each context is "credentials" with what failed and a hint about its user; exit 1; nothing sent', async () => {
    const text = await runCli(['status', '--kubeconfig', kubeconfig]);
    expect(text.code).toBe(1);
    const lines = text.stdout.split('\n');
    const ci = lines.findIndex((l) => l.startsWith('* Context ci '));
    expect(lines[ci]).toMatch(
      new RegExp(
        `^\\* Context ci \\(https://127\\.0\\.0\\.1:\\d+\\)\\.\\.\\. credentials: cannot read the token file of user "ci-bot": open ${tokenFile()}: no such file or directory ✗$`,
      ),
    );
    expect(lines[ci + 1]).toBe(
      '  fix user "ci-bot" of context ci in the kubeconfig (what it names must exist and be valid); kubectl --context ci get --raw /version fails the same way',
    );
    const sso = lines.findIndex((l) => l.startsWith('* Context sso '));
    expect(lines[sso]).toContain(
      'credentials: exec plugin of user "sso": getting credentials: exec: executable fd-sso-login not found; it looks like you are trying to use a client-go credential plugin that is not installed (fd-sso-login is in the ops toolbox: apt install fd-sso) ✗',
    );
    expect(lines[sso + 1]).toMatch(/^ {2}install fd-sso-login, the credential plugin of user "sso"/);
    expect(text.stdout).not.toContain('API server is up');
    expect(text.stdout).not.toContain('ENOENT');
    expect(text.stdout).toMatch(/^0 of 2 contexts reachable at /m);

    const json = await runCli(['status', '-o', 'json', '--kubeconfig', kubeconfig]);
    expect(json.code).toBe(1);
    const contexts = (JSON.parse(json.stdout) as { contexts: Record<string, unknown>[] }).contexts;
    expect(contexts[0]).toMatchObject({
      name: 'ci',
      user: 'ci-bot',
      reachable: false,
      reachability: 'credentials',
      error: `cannot read the token file of user "ci-bot": open ${tokenFile()}: no such file or directory`,
      unreachableSince: null,
      nodes: null,
    });
    expect(contexts[1]).toMatchObject({
      name: 'sso',
      reachability: 'credentials',
      error: expect.stringContaining('executable fd-sso-login not found'),
    });
    // Credentials that cannot be loaded are never replaced by anonymous access: not even a connection
    expect(connections).toBe(0);
  });

  it('a command on one context prints one line naming the file and exits 2', async () => {
    const r = await runCli(['rollout', 'list', '--context', 'ci', '--kubeconfig', kubeconfig]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `fleetdeck: context ci: cannot read the token file of user "ci-bot": open ${tokenFile()}: no such file or directory; fix user "ci-bot" of context ci in the kubeconfig\n`,
    );
    const plugin = await runCli(['approve', '--context', 'sso', '--kubeconfig', kubeconfig]);
    expect(plugin.code).toBe(2);
    expect(plugin.stderr.trim().split('\n')).toHaveLength(1);
    expect(plugin.stderr).toMatch(
      /^fleetdeck: context sso: exec plugin of user "sso": getting credentials: exec: executable fd-sso-login not found; /,
    );
    expect(connections).toBe(0);
  });
});
