/**
 * The install's prerequisite checks: a checklist of everything the hosting and workload
 * clusters must offer before anything changes. The decisions are pure functions (one per
 * check, in verdicts, access and topology) over small summaries; gather reads the summaries
 * from the clusters through src/kube, concurrently per context, and reports every item as it
 * moves pending → running → result.
 */
export * from './types.js';
export * from './verdicts.js';
export * from './access.js';
export * from './topology.js';
export { checkId, runPrechecks, WORKLOAD_VERSIONS_ID, type CheckKey } from './gather.js';
export { prechecksFor } from './for-install.js';
