/**
 * A measuring process: started with the V8 flags the fleetdeck command starts with
 * (src/node-flags.ts), its stderr passed on (but for the cursor sequence ink writes there on exit),
 * its last stdout line read as its JSON result; `{error}` there, or no result, rejects.
 */
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { NODE_FLAGS } from '../node-flags.js';
import { childEnv } from './sandbox.js';

export function runMeasuringChild<T>(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 8 * 60_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv(env) });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      const text = stripVTControlCharacters(d.toString());
      if (text.trim()) process.stderr.write(text);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop() ?? '';
      try {
        const r = JSON.parse(line) as T & { error?: string };
        if (r.error) reject(new Error(r.error));
        else resolve(r);
      } catch {
        reject(new Error(`the measuring process exited ${code} without a result`));
      }
    });
  });
}
