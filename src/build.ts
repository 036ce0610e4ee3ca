/**
 * `npm run build`: bundles the command (and the benchmark's entry points) with esbuild into
 * dist/. One bundle instead of ~1,000 module files from node_modules: startup reads and
 * links a few files, and React runs its production build. Commands load lazily: each is its
 * own chunk, imported when the command runs. Type checking is `npm run typecheck` (tsc).
 *
 *   node src/build.ts
 */
import fs from 'node:fs';
import { build } from 'esbuild';

const outdir = 'dist';
fs.rmSync(outdir, { recursive: true, force: true });

await build({
  // cli.ts is the `fleetdeck` bin, kubectl-fleetdeck.ts the `kubectl-fleetdeck` bin (kubectl's plugin).
  entryPoints: ['src/cli.ts', 'src/kubectl-fleetdeck.ts', 'src/bench/index.ts', 'src/bench/scale-child.ts'],
  outdir,
  outbase: 'src',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  legalComments: 'external',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Ink loads React's devtools only when DEV=true; it is not a dependency.
  external: ['react-devtools-core'],
  // Bundled CommonJS packages call require(): give them one.
  banner: {
    js: "import { createRequire as __fleetdeckCreateRequire } from 'node:module'; const require = __fleetdeckCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
for (const bin of ['cli.js', 'kubectl-fleetdeck.js']) fs.chmodSync(`${outdir}/${bin}`, 0o755);
