import type { Manifest } from '../../kube/api/apply.js';
import { readSecrets } from '../../kube/certs/secret.js';
import { CERT_SECRET_NAMES, certSecrets, certSetFromSecrets, generateCertSet, servingCertCovers } from '../certs/index.js';
import { type RowControl, StepError } from '../runner.js';
import { type InstallRun, hostOf, summarize } from './run.js';

/**
 * The certificate Secrets: existing ones read back and reused, what is missing or no longer
 * fits generated, the serving certificate checked against the address, all applied.
 */
export async function certificatesStep(run: InstallRun, row: RowControl): Promise<string> {
  const { opts, namespace: ns, address } = run;
  const existing = await readSecrets(opts.hosting.kc, ns, CERT_SECRET_NAMES);
  const found = Object.keys(existing).length;
  if (!address) {
    // A dry run before the Service exists: the Secrets are known by name, their contents are not.
    const missing = CERT_SECRET_NAMES.filter((n) => !existing[n]);
    run.record(
      opts.hosting.context,
      missing.map((n) => ({ ref: `Secret ${ns}/${n}`, action: 'created' as const })),
    );
    return `${missing.length} Secrets to create (generated once the Service has an address)${found ? `, ${found} exist` : ''}`;
  }
  row.progress('generating keys and certificates');
  const generated = await generateCertSet(
    { namespace: ns, apiserverAddress: address, etcdMembers: opts.ha ? 3 : 1, validityDays: opts.validityDays, rotate: opts.rotateCerts },
    certSetFromSecrets(Object.values(existing)),
  );
  run.certs = generated.set;
  const serving = run.certs.apiserver.certPem;
  if (!serving || !servingCertCovers(serving, address)) {
    throw new StepError(
      `the API server certificate does not cover ${hostOf(address)}`,
      'run the install again with --rotate-certs to re-issue it',
    );
  }
  const results = await run.applyHosting(certSecrets(run.certs, ns) as Manifest[]);
  const reused = generated.actions.filter((a) => a.action === 'reused').length;
  return `${summarize(results, opts.dryRun)}; ${reused ? `${reused} reused, ` : ''}serving certificate covers ${hostOf(address)}`;
}
