/**
 * Figure 4's measuring process (started by scale.ts). As the `fleetdeck` entry point does, it
 * turns on Node's compile cache before loading anything else (src/cli.ts), then runs the
 * measurement (scale-measure.ts).
 *
 *   node dist/bench/scale-child.js --kubeconfig FILE --context NAME
 */
import { enableCompileCache } from '../compile-cache.js';

enableCompileCache();
await import('./scale-measure.js');
