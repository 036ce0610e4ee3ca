/**
 * Runs one of the docs' generators (`node src/docs/run.ts src/docs/write-keys.ts`): bundled with
 * esbuild as the build bundles the command, its packages left to node_modules, then imported. The
 * generators read the same modules the dashboard runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node src/docs/run.ts src/docs/<generator>.ts\n');
  process.exit(2);
}
// Inside node_modules, so that the packages left out of the bundle resolve from the project.
const outdir = path.resolve('node_modules/.cache/fleetdeck-docs');
fs.mkdirSync(outdir, { recursive: true });
const outfile = path.join(outdir, `${path.basename(entry, '.ts')}.mjs`);
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  logLevel: 'warning',
});
await import(pathToFileURL(outfile).href);
