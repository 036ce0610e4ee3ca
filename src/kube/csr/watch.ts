/** Reading the CSRs of a cluster: once (with the node addresses their warnings need), or live. */
import { CertificatesV1Api, CoreV1Api, type KubeConfig, type V1CertificateSigningRequest } from '@kubernetes/client-node';
import { describeError, makeClient, statusCode } from '../transport/client.js';
import { KUBELET_SERVING_SIGNER, nodeAddressesOf, sortCsrs, summarizeCsr, withWarnings, type CsrSummary } from './summary.js';
import { ResilientWatch } from '../watch/watch.js';

/** Every CSR of the context's cluster, summarised (no warnings yet), oldest first. */
export async function listCsrs(kc: KubeConfig): Promise<CsrSummary[]> {
  const api = makeClient(kc, CertificatesV1Api);
  const list = await api.listCertificateSigningRequest();
  return sortCsrs(list.items.map(summarizeCsr));
}

/** The addresses of the nodes that pending kubelet serving CSRs name (`null`: no such Node). */
export async function servingNodeAddresses(kc: KubeConfig, csrs: CsrSummary[]): Promise<Record<string, string[] | null>> {
  const names = [
    ...new Set(csrs.filter((c) => c.condition === 'Pending' && c.signer === KUBELET_SERVING_SIGNER && c.nodeName).map((c) => c.nodeName!)),
  ];
  if (names.length === 0) return {};
  const core = makeClient(kc, CoreV1Api);
  const out: Record<string, string[] | null> = {};
  await Promise.all(
    names.map(async (name) => {
      try {
        out[name] = nodeAddressesOf(await core.readNode({ name }));
      } catch (err) {
        if (statusCode(err) === 404) out[name] = null;
        // other errors (e.g. forbidden): not checked
      }
    }),
  );
  return out;
}

/** Every CSR with its warnings. */
export async function listCsrsWithWarnings(kc: KubeConfig): Promise<CsrSummary[]> {
  const csrs = await listCsrs(kc);
  return withWarnings(csrs, await servingNodeAddresses(kc, csrs));
}

export interface CsrWatchHandlers {
  /** The full set after every change (with warnings; node addresses looked up as needed). */
  onChange: (csrs: CsrSummary[]) => void;
  /** A CSR seen for the first time after the initial list (for auto-approval). */
  onNew?: (csr: CsrSummary) => void;
  onError?: (message: string) => void;
}

/** Live CSRs of a context (list then watch, resilient). `stop()` ends it. */
export function watchCsrs(kc: KubeConfig, h: CsrWatchHandlers): { stop: () => Promise<void> } {
  const api = makeClient(kc, CertificatesV1Api);
  const byName = new Map<string, CsrSummary>();
  let listed = false;
  let seq = 0;
  let addresses: Record<string, string[] | null> = {};
  const emit = async () => {
    const mine = ++seq;
    const all = sortCsrs([...byName.values()]);
    h.onChange(withWarnings(all, addresses));
    const missing = all.some(
      (c) => c.condition === 'Pending' && c.signer === KUBELET_SERVING_SIGNER && c.nodeName && !(c.nodeName in addresses),
    );
    if (!missing) return;
    try {
      addresses = { ...addresses, ...(await servingNodeAddresses(kc, all)) };
      if (mine === seq) h.onChange(withWarnings(sortCsrs([...byName.values()]), addresses));
    } catch (err) {
      h.onError?.(describeError(err));
    }
  };
  const w = new ResilientWatch<V1CertificateSigningRequest>({
    kc,
    path: '/apis/certificates.k8s.io/v1/certificatesigningrequests',
    list: () => api.listCertificateSigningRequest(),
    onList: (items) => {
      const before = new Set(byName.keys());
      byName.clear();
      for (const i of items) {
        const s = summarizeCsr(i);
        byName.set(s.name, s);
        if (listed && !before.has(s.name)) h.onNew?.(s);
      }
      listed = true;
      void emit();
    },
    onEvent: (type, obj) => {
      const s = summarizeCsr(obj);
      if (type === 'DELETED') byName.delete(s.name);
      else {
        const isNew = !byName.has(s.name);
        byName.set(s.name, s);
        if (isNew) h.onNew?.(s);
      }
      void emit();
    },
    onError: (message) => h.onError?.(message),
  });
  w.start();
  return { stop: () => w.stop() };
}
