import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { authorityFromPem, issueCertificate } from '../../../src/kube/certs/pki.js';
import { loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { readState } from '../../../src/sandbox/state.js';
import { sandbox } from './fleet.js';

/**
 * The sandbox's contexts as a user of this test's own, in group system:masters (RBAC lets it
 * change anything, so only the gate can stop it), with a client certificate of each cluster's CA:
 * what the API servers log for that user is the test's alone, whatever other tests do meanwhile.
 */
export async function ownUserKubeconfig(user: string, dir: string): Promise<string> {
  const { config } = loadKubeconfig({ kubeconfig: sandbox().kubeconfig });
  const state = readState(sandbox().dir);
  if (!state) throw new Error('no sandbox state');
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [] as object[],
    users: [] as object[],
    contexts: [] as object[],
    'current-context': '',
  };
  for (const entry of state.clusters) {
    const cluster = config.getCluster(config.getContextObject(entry.context)?.cluster ?? '');
    if (!cluster) continue;
    const pki = path.join(path.dirname(entry.auditLog), 'pki');
    const caPem = fs.readFileSync(path.join(pki, 'ca.crt'), 'utf8');
    const ca = authorityFromPem(caPem, fs.readFileSync(path.join(pki, 'ca.key'), 'utf8'));
    const cert = await issueCertificate(ca, { commonName: user, organizations: ['system:masters'], usage: 'client', days: 1 });
    doc.clusters.push({ name: entry.context, cluster: { server: cluster.server, 'certificate-authority-data': b64(caPem) } });
    doc.users.push({ name: entry.context, user: { 'client-certificate-data': b64(cert.certPem), 'client-key-data': b64(cert.keyPem) } });
    doc.contexts.push({ name: entry.context, context: { cluster: entry.context, user: entry.context } });
  }
  doc['current-context'] = state.clusters[0]?.context ?? '';
  const file = path.join(dir, 'kubeconfig');
  fs.writeFileSync(file, stringify(doc), { mode: 0o600 });
  return file;
}
