/**
 * `npm run build`: bundles the command (and the benchmark's entry points) with esbuild into
 * dist/. One bundle instead of ~1,000 module files from node_modules: startup reads and
 * links a few files, and React runs its production build. Commands load lazily: each is its
 * own chunk, imported when the command runs. Type checking is `npm run typecheck` (tsc).
 * The bundle holds the libraries it uses, so the package has no runtime dependencies; their
 * licences go beside it, in dist/THIRD-PARTY-LICENSES.txt.
 *
 *   node src/build.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';

const outdir = 'dist';

/**
 * client-node's modules have no side effects fleetdeck needs (the one it has, a `File` global
 * for Node 18, Node ≥ 22 has built in), but its package does not say so: without this, every
 * chunk that imports anything from it (KubeConfig, ApiException) also evaluates all of its
 * generated API classes and models (~2.4 MB) at startup. Marked side-effect free, esbuild keeps
 * in each chunk only what that chunk uses: a one-shot `status`, which reads everything as plain
 * JSON or protobuf, loads none of the generated code.
 */
const clientNodeWithoutSideEffects: Plugin = {
  name: 'client-node-without-side-effects',
  setup(b) {
    b.onResolve({ filter: /./ }, async (args) => {
      if (args.pluginData === 'resolving' || args.kind === 'entry-point') return undefined;
      // config.js (KubeConfig) takes two values from the generated index: only those.
      if (args.path === './gen/index.js' && args.importer.endsWith('/@kubernetes/client-node/dist/config.js'))
        return { path: path.join(path.dirname(args.importer), 'gen/config-needs.js'), namespace: 'client-node-config', sideEffects: false };
      if (!args.path.includes('client-node') && !args.importer.includes('/@kubernetes/client-node/')) return undefined;
      const r = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'resolving',
      });
      if (r.errors.length || !r.path.includes('/node_modules/@kubernetes/client-node/dist/')) return undefined;
      return { path: r.path, sideEffects: false };
    });
    b.onLoad({ filter: /./, namespace: 'client-node-config' }, (args) => ({
      contents: "export { createConfiguration } from './configuration.js'; export { ServerConfiguration } from './servers.js';",
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};
fs.rmSync(outdir, { recursive: true, force: true });

const result = await build({
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
  metafile: true,
  plugins: [clientNodeWithoutSideEffects],
});
for (const bin of ['cli.js', 'kubectl-fleetdeck.js']) fs.chmodSync(`${outdir}/${bin}`, 0o755);

/** The folder of the npm package a bundled file comes from (`…/node_modules/@scope/name`), if any. */
function packageDirOf(file: string): string | undefined {
  const at = file.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const parts = file.slice(at + 'node_modules/'.length).split('/');
  return path.resolve(file.slice(0, at), 'node_modules', ...parts.slice(0, parts[0]?.startsWith('@') ? 2 : 1));
}

/** Name, version, licence and licence text of every package with code in the bundle. */
function thirdPartyLicenses(metafile: Metafile): string {
  const dirs = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const dir = bytesInOutput > 0 ? packageDirOf(input) : undefined;
      if (dir) dirs.add(dir);
    }
  }
  const entries = [...dirs].map((dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
    const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.\w+)?$/i.test(f));
    const text = file
      ? fs.readFileSync(path.join(dir, file), 'utf8').trim()
      : `(no licence file in the package; package.json says ${pkg.license ?? 'nothing'})`;
    return { id: `${pkg.name}@${pkg.version}`, text: `${pkg.name}@${pkg.version} — ${pkg.license ?? 'unknown licence'}\n\n${text}` };
  });
  // The same package and version installed in two places is listed once.
  const unique = [...new Map(entries.map((e) => [e.id, e])).values()].sort((a, b) => a.id.localeCompare(b.id));
  const head = 'fleetdeck bundles the following packages (dist/ holds their code). Their licences:';
  return `${[head, ...unique.map((e) => e.text)].join(`\n\n${'-'.repeat(72)}\n\n`)}\n`;
}

fs.writeFileSync(path.join(outdir, 'THIRD-PARTY-LICENSES.txt'), thirdPartyLicenses(result.metafile));
