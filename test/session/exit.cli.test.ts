import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CLI, ROOT } from '../helpers/cli/cli.js';

/**
 * fleetdeck's output read through a real pipe, as `fleetdeck status -o json | jq` reads it: a
 * pipe takes 64 KiB at a time, so exiting before stdout drains would cut it there.
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-exit-'));
const kubeconfig = path.join(tmp, 'many.kubeconfig');
const CONTEXTS = 600;

/** Runs `script` in bash where "$NODE_BIN" "$FD_CLI" runs fleetdeck; resolves stdout, stderr and bash's exit code. */
function shell(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      env: {
        ...process.env,
        NODE_BIN: process.execPath,
        FD_CLI: CLI,
        CI: 'true',
        HOME: tmp,
        FLEETDECK_FLEET_FILE: path.join(ROOT, 'test', 'no-fleet.yaml'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  // Many contexts with long names, every server a closed port: megabytes of JSON, quickly.
  const names = Array.from({ length: CONTEXTS }, (_, i) => `ctx-${String(i).padStart(4, '0')}-${'x'.repeat(1500)}`);
  fs.writeFileSync(
    kubeconfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: names.map((_, i) => ({ name: `c${i}`, cluster: { server: 'https://127.0.0.1:1' } })),
      users: [{ name: 'u', user: { token: 'x' } }],
      contexts: names.map((name, i) => ({ name, context: { cluster: `c${i}`, user: 'u' } })),
      'current-context': names[0],
    }),
  );
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('output through a pipe', () => {
  it('status -o json | cat is whole when it is megabytes', async () => {
    const r = await shell(`"$NODE_BIN" "$FD_CLI" status -o json --kubeconfig '${kubeconfig}' | cat; echo "exit=\${PIPESTATUS[0]}" >&2`);
    expect(r.stderr.trim()).toBe('exit=1');
    expect(r.stdout.length).toBeGreaterThan(1_000_000);
    const json = JSON.parse(r.stdout) as { contexts: { name: string; error: string }[] };
    expect(json.contexts).toHaveLength(CONTEXTS);
    expect(json.contexts.at(-1)?.name).toMatch(new RegExp(`^ctx-0${CONTEXTS - 1}-x+$`));
  }, 120_000);

  it('a reader that goes away early (| head -c 100) ends fleetdeck quietly', async () => {
    const r = await shell(
      `"$NODE_BIN" "$FD_CLI" status -o json --kubeconfig '${kubeconfig}' | head -c 100; s=\${PIPESTATUS[0]}; echo; echo "exit=$s" >&2`,
    );
    expect(r.stdout.trim().startsWith('{')).toBe(true);
    expect(r.stderr.trim()).toBe('exit=141');
  }, 120_000);
});
