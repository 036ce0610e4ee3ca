import { collectStatus, statusChecks, statusJson } from '../report/status.js';
import { formatChecklist } from '../store/checklist.js';
import { asciiOnly, requireOutput, selection, type GlobalOptions } from './options.js';

/** `fleetdeck status`: every context once; exit 0 when all are reachable, 1 when not. */
export async function runStatus(opts: GlobalOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const { config, contexts, files } = selection(opts);
  if (contexts.length === 0) {
    const where = files.length ? files.join(', ') : 'no kubeconfig file found';
    if (output === 'json') process.stdout.write(`${JSON.stringify({ contexts: [] }, null, 2)}\n`);
    else process.stdout.write(`No kube contexts (${where}). Start the sandbox fleet with: fleetdeck sandbox up\n`);
    return 1;
  }
  const state = await collectStatus(config, contexts);
  const report = statusJson(state);
  if (output === 'json') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(`${formatChecklist(statusChecks(state), { ascii: asciiOnly(opts) })}\n`);
  return report.contexts.every((c) => c.reachable) ? 0 : 1;
}
