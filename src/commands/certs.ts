/**
 * `fleetdeck certs`: every certificate of the fleet in one table (read only): the control
 * plane's Secrets in the hosting context, the agents' init kubeconfig in each workload context,
 * the client certificates of the user's kubeconfig.
 */
import { DEFAULT_NAMESPACE } from '../config/fleet-config.js';
import { UsageError, UserError } from '../errors.js';
import { CERT_SECRET_NAMES, INIT_KUBECONFIG_SECRET } from '../install/certs/specs.js';
import { readCertSources } from '../kube/certs/cert-sources.js';
import { contextInfos } from '../kube/config/kubeconfig.js';
import { document } from '../output/format.js';
import { type CertInventory, certInventory, certState } from '../report/certs/inventory.js';
import { certsJson, certsText } from '../report/certs/table.js';
import { asciiOnly, type GlobalOptions, requireOutput } from '../session/options.js';
import { openSession, type Session } from '../session/session.js';

export interface CertsOptions extends GlobalOptions {
  warnDays?: number;
}

const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

interface Targets {
  hosting: string;
  namespace: string;
  workloads: string[];
}

/** The hosting context and fleet namespace as `status` finds them (fleet file, --hosting-context); else --context or the current context. */
function targets(sel: Session, opts: CertsOptions): Targets {
  if (sel.fleet) {
    return { hosting: sel.fleet.hostingContext, namespace: sel.fleet.namespace, workloads: sel.fleet.workloads.map((w) => w.context) };
  }
  const given = [...new Set((opts.context ?? []).filter(Boolean))];
  if (given.length > 1) throw new UsageError(`certs: give --context once (the hosting context; got ${given.join(', ')})`);
  const hosting = given[0] ?? sel.config.getCurrentContext();
  if (!hosting) throw new UsageError('certs: no --context or --hosting-context given and the kubeconfig has no current context');
  const names = contextInfos(sel.config).map((c) => c.name);
  if (!names.includes(hosting)) {
    throw new UserError(
      `context "${hosting}" is not in the kubeconfig (known: ${names.join(', ') || 'none'}); check --context or --kubeconfig`,
      2,
    );
  }
  return { hosting, namespace: DEFAULT_NAMESPACE, workloads: [] };
}

/** Reads every source; nothing is written anywhere. */
export async function collectCerts(sel: Session, t: Targets): Promise<CertInventory> {
  const secrets = { controlPlane: CERT_SECRET_NAMES, agentInit: INIT_KUBECONFIG_SECRET };
  return certInventory(await readCertSources(sel.kc, sel.config, { ...t, secrets }));
}

/** Exit 0 when every certificate is fine, 1 when one expires within --warn-days, has expired or could not be read. */
export async function runCerts(opts: CertsOptions, now: () => number = Date.now): Promise<number> {
  const output = requireOutput(opts.output);
  const warnDays = opts.warnDays ?? 30;
  const sel = openSession(opts);
  const inv = await collectCerts(sel, targets(sel, opts));
  const at = now();
  if (output !== 'text') write(document(output, certsJson(inv, at, warnDays)));
  else write(certsText(inv, at, warnDays, asciiOnly(opts)));
  return inv.rows.every((r) => certState(r, at, warnDays) === 'ok') ? 0 : 1;
}
