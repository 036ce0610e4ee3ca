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
import { createRequire } from 'node:module';
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
/**
 * Node's `http`, imported as an ES module, gets a module facade that reads every export, and so
 * its lazy ones (WebSocket, EventSource, …), which load Node's own copy of undici: 50–90 ms of
 * CPU at every start, before any request. Bundled code gets `node:http` through require() instead
 * (the banner's), with the same named exports: those that are plain values. A require() of it
 * (in bundled CommonJS packages) is Node's own require already.
 */
const httpThroughRequire: Plugin = {
  name: 'http-through-require',
  setup(b) {
    b.onResolve({ filter: /^(node:)?http$/ }, (args) =>
      args.kind === 'import-statement' ? { path: 'node:http', namespace: 'builtin-require' } : undefined,
    );
    b.onLoad({ filter: /./, namespace: 'builtin-require' }, (args) => {
      const descriptors = Object.entries(Object.getOwnPropertyDescriptors(createRequire(import.meta.url)(args.path) as object));
      const names = descriptors.filter(([k, d]) => 'value' in d && k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k)).map(([k]) => k);
      return {
        contents: `const m = require(${JSON.stringify(args.path)}); export default m; export const { ${names.join(', ')} } = m;`,
        loader: 'js',
      };
    });
  },
};

/**
 * undici's index loads all of undici (fetch, WebSocket, EventSource, caches, mocks) to export it.
 * fleetdeck and client-node import four names from it: Agent, ProxyAgent and buildConnector come
 * from their own modules, and fetch (client-node's logs, metrics and health helpers, which
 * fleetdeck does not call on its own paths) loads the whole index on first use. A one-shot
 * `status` evaluates a fifth of undici instead of all of it.
 */
const undiciEntry: Plugin = {
  name: 'undici-entry',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'undici-entry' }));
    b.onLoad({ filter: /./, namespace: 'undici-entry' }, () => ({
      contents: `const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));
module.exports = {
  Agent: require('undici/lib/dispatcher/agent.js'),
  ProxyAgent: require('undici/lib/dispatcher/proxy-agent.js'),
  buildConnector: require('undici/lib/core/connect.js'),
  get fetch() { return require('undici/index.js').fetch; },
};`,
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};
/**
 * Packages client-node imports when it loads, for what few runs use: SOCKS and HTTP proxies
 * (socks, socks-proxy-agent, hpagent), the Azure and GCP auth providers' JSONPath, and js-yaml
 * (fleetdeck reads kubeconfigs with `yaml` and hands client-node the parsed document). Each is
 * replaced by a module of getters that loads the package on first use: a one-shot `status`
 * evaluates none of them.
 */
const LAZY_PACKAGES = ['socks', 'socks-proxy-agent', 'hpagent', 'jsonpath-plus', 'js-yaml'];
const lazyPackages: Plugin = {
  name: 'lazy-packages',
  setup(b) {
    const require = createRequire(import.meta.url);
    b.onResolve({ filter: new RegExp(`^(${LAZY_PACKAGES.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'lazy-package' }));
    b.onLoad({ filter: /./, namespace: 'lazy-package' }, (args) => {
      const real = require.resolve(args.path);
      const names = Object.keys(require(real) as object).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k));
      const getters = names.map((n) => `get ${n}() { return load().${n}; }`).join(',\n  ');
      return {
        contents: `let m;\nconst load = () => (m ??= require(${JSON.stringify(real)}));\nmodule.exports = {\n  ${getters}\n};`,
        loader: 'js',
        resolveDir: process.cwd(),
      };
    });
  },
};
fs.rmSync(outdir, { recursive: true, force: true });

const result = await build({
  // cli.ts is the `fleetdeck` bin, kubectl-fleetdeck.ts the `kubectl-fleetdeck` bin (kubectl's plugin).
  entryPoints: ['src/cli.ts', 'src/kubectl-fleetdeck.ts', 'src/bench/index.ts', 'src/bench/scale-child.ts', 'src/bench/placement-child.ts'],
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
  // Not keepNames: it wraps every function and class of the bundle in a call that sets its name
  // again (~25 ms of every start); the code fleetdeck bundles names its errors itself.
  keepNames: false,
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
  plugins: [httpThroughRequire, undiciEntry, lazyPackages, clientNodeWithoutSideEffects],
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
