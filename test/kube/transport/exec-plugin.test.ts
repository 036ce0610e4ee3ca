import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCredentialsError, setPluginTerminal } from '../../../src/kube/transport/credentials.js';
import { parseExecCredential } from '../../../src/kube/transport/exec-plugin.js';
import { configForContext, kubeConfigFromString } from '../../../src/kube/config/kubeconfig.js';
import { stringify } from 'yaml';

let dir: string;
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';

beforeAll(() => {
  // As in a pipeline, whatever terminal the tests were started from
  setPluginTerminal(() => false);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-exec-plugin-'));
});
afterAll(() => {
  setPluginTerminal(() => process.stdin.isTTY === true);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A plugin: a Node script run by this Node, the exec entry around it. */
function plugin(name: string, body: string, more: Record<string, unknown> = {}) {
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(file, body);
  return { apiVersion: V1BETA1, command: process.execPath, args: [file], ...more };
}

function contextOf(exec: Record<string, unknown>) {
  const kc = kubeConfigFromString(
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
      users: [{ name: 'sso', user: { exec } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'sso' } }],
      'current-context': 'ctx',
    }),
  );
  return configForContext(kc, 'ctx');
}

const credential = (status: Record<string, unknown>) => JSON.stringify({ apiVersion: V1BETA1, kind: 'ExecCredential', status });

async function headersOf(exec: Record<string, unknown>): Promise<Record<string, unknown>> {
  const opts: { headers?: Record<string, unknown> } = {};
  await contextOf(exec).applyToHTTPSOptions(opts);
  return opts.headers ?? {};
}

async function failureOf(exec: Record<string, unknown>): Promise<Error> {
  const err = await contextOf(exec)
    .applyToHTTPSOptions({})
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(isCredentialsError(err)).toBe(true);
  return err as Error;
}

describe('exec credential plugins', () => {
  it('runs the plugin with the env of the kubeconfig and KUBERNETES_EXEC_INFO, and sends its token', async () => {
    const exec = plugin(
      'env',
      `const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
       process.stdout.write(${JSON.stringify(credential({ token: 'X' }))}.replace('"X"', JSON.stringify(process.env.FD_TOKEN + ':' + info.spec.interactive)));`,
      { env: [{ name: 'FD_TOKEN', value: 'from-env' }], interactiveMode: 'IfAvailable' },
    );
    // Without a terminal: not interactive
    expect((await headersOf(exec)).Authorization).toBe('Bearer from-env:false');
  });

  it('gives a plugin that reads stdin an empty one instead of a pipe it would wait on', async () => {
    const exec = plugin(
      'stdin',
      `let input = ''; process.stdin.on('data', (d) => (input += d)).on('end', () =>
         process.stdout.write(${JSON.stringify(credential({ token: 'T' }))}.replace('"T"', JSON.stringify('read:' + input.length))));`,
      { interactiveMode: 'Never' },
    );
    expect((await headersOf(exec)).Authorization).toBe('Bearer read:0');
  });

  it("says a failing plugin's exit code and last stderr line in kubectl's words", async () => {
    const exec = plugin('fails', `process.stderr.write('login required\\nrun sso-login first\\n'); process.exit(3);`);
    const err = await failureOf(exec);
    expect(err.message).toBe(
      `exec plugin ${process.execPath} of user "sso": getting credentials: exec: executable ${process.execPath} failed with exit code 3: run sso-login first`,
    );
  });

  it('never goes on without credentials when the plugin returns neither a token nor a certificate and key', async () => {
    const err = await failureOf(plugin('empty', `process.stdout.write(${JSON.stringify(credential({}))});`));
    expect(err.message).toMatch(/getting credentials: exec plugin didn't return a token or cert\/key pair$/);
  });

  it('checks the ExecCredential as client-go does', () => {
    const exec = { apiVersion: V1BETA1 };
    expect(parseExecCredential(credential({ token: 't' }), exec)).toEqual({ token: 't' });
    expect(() => parseExecCredential('{"apiVersion":"client.authentication.k8s.io/v1","status":{"token":"t"}}', exec)).toThrow(
      `exec plugin is configured to use API version ${V1BETA1}, plugin returned version client.authentication.k8s.io/v1`,
    );
    expect(() => parseExecCredential(credential({ clientCertificateData: 'c' }), exec)).toThrow(
      'exec plugin returned only certificate or key, not both',
    );
    expect(() => parseExecCredential('not json', exec)).toThrow(/^decoding stdout: /);
  });
});
