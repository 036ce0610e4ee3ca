/**
 * The Workloads figure's measuring process (started by placement.ts). As the `fleetdeck` entry
 * point does, it turns on Node's compile cache before loading anything else (src/cli.ts), then
 * runs the measurement (placement-measure.ts).
 *
 *   FLEETDECK_FLEET_FILE=FILE node dist/bench/placement-child.js --kubeconfig FILE --objects N
 */
import { enableCompileCache } from '../compile-cache.js';

enableCompileCache();
await import('./placement-measure.js');
