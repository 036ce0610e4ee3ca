import { type InstallRun, namespaceObject } from './run.js';

/** The namespace in the hosting cluster. */
export async function namespaceStep(run: InstallRun): Promise<string> {
  const results = await run.applyHosting([namespaceObject(run.namespace)]);
  return `${run.namespace} ${results[0]?.action ?? ''}`.trim();
}
