#!/usr/bin/env node
// The entry point checks the Node version before loading anything that needs a newer one.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `fleetdeck: needs Node.js 22.12 or newer (this is ${process.version}, ${process.execPath}); install Node.js 22.12 or newer (nodejs.org, or your system's packages) and put it first on PATH\n`,
  );
  process.exit(1);
}
// Completion (`fleetdeck complete -- …`, on every Tab) lists nothing large: no second start for V8 flags.
if (process.argv[2] !== 'complete') {
  const { restartWithNodeFlags } = await import('./node-flags.js');
  restartWithNodeFlags();
}
const { enableCompileCache } = await import('./compile-cache.js');
enableCompileCache();
const { run } = await import('./main.js');
await run();
