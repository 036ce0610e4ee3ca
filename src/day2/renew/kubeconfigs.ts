/**
 * The kubeconfigs that embed a renewed client certificate: the install's file and the file it
 * merged into (the admin certificate), the agents' init kubeconfig Secret in the control plane
 * and its copy in each workload cluster (the bootstrap certificate). A user entry is changed
 * when its key is the renewed certificate's key; everything else in a file stays as it is.
 */
import fs from 'node:fs';
import { parse, stringify } from 'yaml';
import type { KeyMaterial } from '../../install/certs/types.js';
import { readKubeconfigDoc, type KubeconfigDoc, writeWithBackup } from '../../install/kubeconfig-file.js';
import { mergeRecordPath, readMergeRecord, recordMerge } from '../../install/kubeconfig-unmerge.js';
import { Applier, type Manifest } from '../../kube/api/apply.js';
import { keyMatchesCertificate } from '../../kube/certs/pki.js';
import type { RenewTarget } from './target.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: unknown) => (typeof s === 'string' ? Buffer.from(s, 'base64').toString('utf8') : '');

/** Points every user of `doc` whose key is `leaf`'s at `leaf`'s certificate; the names of the users changed. */
export function replaceClientCert(doc: KubeconfigDoc, leaf: KeyMaterial): string[] {
  const changed: string[] = [];
  for (const u of doc.users ?? []) {
    const user = u.user as Record<string, unknown> | undefined;
    if (!user) continue;
    const key = unb64(user['client-key-data']);
    if (!key || !keyMatchesCertificate(leaf.certPem, key)) continue;
    if (unb64(user['client-certificate-data']) === leaf.certPem) continue;
    user['client-certificate-data'] = b64(leaf.certPem);
    changed.push(u.name);
  }
  return changed;
}

/** Changes a kubeconfig document in place; the names of the entries changed. */
export type KubeconfigEdit = (doc: KubeconfigDoc) => string[];

/** The install's kubeconfig (replaced atomically, 0600) and the file it merged into (after a backup; the merge record follows). */
export function updateKubeconfigFiles(t: RenewTarget, admin: KeyMaterial, now = new Date()): string {
  return editKubeconfigFiles(t, (doc) => replaceClientCert(doc, admin), now);
}

/** `edit` applied to the install's kubeconfig and the file it merged into, as {@link updateKubeconfigFiles} writes them. */
export function editKubeconfigFiles(t: RenewTarget, edit: KubeconfigEdit, now = new Date()): string {
  const lines: string[] = [];
  if (fs.existsSync(t.kubeconfigPath)) {
    const doc = readKubeconfigDoc(t.kubeconfigPath);
    const changed = edit(doc);
    if (changed.length) {
      const tmp = `${t.kubeconfigPath}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, stringify(doc), { mode: 0o600 });
      fs.renameSync(tmp, t.kubeconfigPath);
    }
    lines.push(`${t.kubeconfigPath} ${changed.length ? 'updated' : 'up to date'}`);
  } else lines.push(`${t.kubeconfigPath} not found (skipped)`);
  const recordFile = mergeRecordPath(t.kubeconfigPath);
  for (const m of readMergeRecord(recordFile)?.merges ?? []) {
    if (!fs.existsSync(m.file)) continue;
    const doc = readKubeconfigDoc(m.file);
    const changed = edit(doc);
    if (!changed.length) {
      lines.push(`${m.file} up to date`);
      continue;
    }
    const backup = writeWithBackup(m.file, doc, now);
    // The uninstall removes these entries by their digest: record the new one.
    const recorded = m.entries.filter((e) => (e.kind === 'users' || e.kind === 'clusters') && changed.includes(e.name));
    recordMerge(
      recordFile,
      m.file,
      recorded.map((e) => ({ kind: e.kind, name: e.name, entry: doc[e.kind]!.find((x) => x.name === e.name)! })),
    );
    lines.push(`${m.file} updated${backup ? ` (backup ${backup})` : ''}`);
  }
  return lines.join('; ');
}

type SecretManifest = Manifest & { type?: string; data?: Record<string, string> };

/** The init kubeconfig Secret's data with the bootstrap certificate replaced; undefined when nothing changes. */
function renewedInit(secret: SecretManifest | undefined, edit: KubeconfigEdit): Record<string, string> | undefined {
  const text = unb64(secret?.data?.kubeconfig);
  if (!text) return undefined;
  const doc = parse(text) as KubeconfigDoc;
  if (!edit(doc).length) return undefined;
  return { ...secret!.data, kubeconfig: b64(stringify(doc)) };
}

const initRef = (namespace: string): SecretManifest => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'nova-cluster-init-kubeconfig', namespace },
});

/**
 * The init kubeconfig in the control plane with the new bootstrap certificate, then copied to
 * each workload cluster (as the install copies it). Returns one phrase per context.
 */
export function updateInitKubeconfigs(t: RenewTarget, bootstrap: KeyMaterial, progress: (d: string) => void): Promise<string> {
  return editInitKubeconfigs(t, (doc) => replaceClientCert(doc, bootstrap), progress);
}

/** `edit` applied to the init kubeconfig in the control plane, then copied as {@link updateInitKubeconfigs} does. */
export async function editInitKubeconfigs(t: RenewTarget, edit: KubeconfigEdit, progress: (d: string) => void): Promise<string> {
  const ref = initRef(t.namespace);
  const cp = new Applier(t.controlPlane.kc);
  const source = await cp.read<SecretManifest>(ref);
  if (!source?.data?.kubeconfig) throw new Error(`no Secret ${t.namespace}/${ref.metadata.name} in the control plane`);
  const renewed = renewedInit(source, edit);
  const data = renewed ?? source.data;
  const out: string[] = [];
  if (renewed)
    await cp.apply({ ...ref, metadata: { ...ref.metadata, labels: source.metadata.labels ?? {} }, type: source.type ?? 'Opaque', data });
  out.push(`${t.controlPlane.context} ${renewed ? 'updated' : 'up to date'}`);
  for (const w of t.workloads) {
    progress(`copying to ${w.context}`);
    const a = new Applier(w.kc);
    const copy = await a.read<SecretManifest>(ref);
    const same = copy?.data?.kubeconfig === data.kubeconfig;
    if (!same)
      await a.apply({
        ...ref,
        metadata: { ...ref.metadata, labels: copy?.metadata.labels ?? source.metadata.labels ?? {} },
        type: 'Opaque',
        data,
      });
    out.push(`${w.context} ${same ? 'up to date' : 'updated'}`);
  }
  return out.join(', ');
}
