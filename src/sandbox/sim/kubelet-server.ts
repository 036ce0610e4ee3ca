import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { containerLogFile, isLogOpen, parseCriLog, podLogDir } from './container-log.js';
import { ByteLimit, formatEntry, parseLogOptions, selectEntries, selectInstance, type LogOptions } from './log-query.js';

/** The port a Node advertises for its kubelet (daemonEndpoints.kubeletEndpoint). */
export const KUBELET_PORT = 10250;
const FOLLOW_POLL_MS = 100;

/** A pod the kubelet runs and what its containers report now. */
export interface LogTarget {
  pod: V1Pod;
  status(container: string): V1ContainerStatus | undefined;
}

/** The cluster's kubelet serving certificate and the CA client certificates must be signed by (PEM). */
export interface KubeletTls {
  certPem: string;
  keyPem: string;
  caPem: string;
}

export interface KubeletServerDeps {
  runtimeDir: string;
  tls: KubeletTls;
  /** The pod `namespace/name` if one of our nodes runs it. */
  lookup(namespace: string, name: string): LogTarget | undefined;
  log: (line: string) => void;
}

/** Reads the serving certificate and the CA from `<cluster dir>/pki` (see credentials.ts), undefined if absent. */
export function readKubeletTls(clusterDir: string): KubeletTls | undefined {
  try {
    const read = (n: string) => fs.readFileSync(`${clusterDir}/pki/${n}`, 'utf8');
    return { certPem: read('kubelet.crt'), keyPem: read('kubelet.key'), caPem: read('ca.crt') };
  } catch {
    return undefined;
  }
}

/**
 * The kubelet API of each simulated node, as far as the API server uses it for logs: HTTPS on
 * the node's address, client certificates signed by the cluster CA required (system:masters
 * only), `GET /containerLogs/{namespace}/{pod}/{container}`.
 */
export class KubeletServers {
  private readonly servers = new Map<string, https.Server>();

  constructor(private readonly deps: KubeletServerDeps) {}

  /** Serves node `name` at `ip`: on KUBELET_PORT, or a free port if that one is taken. Resolves with the port. */
  async open(name: string, ip: string): Promise<number> {
    await this.close(name);
    const { tls } = this.deps;
    const server = https.createServer(
      { cert: tls.certPem, key: tls.keyPem, ca: tls.caPem, requestCert: true, rejectUnauthorized: false },
      (req, res) => this.handle(name, req, res),
    );
    const listen = (port: number) =>
      new Promise<number>((resolve, reject) => {
        const onError = (err: Error) => reject(err);
        server.once('error', onError);
        server.listen({ port, host: ip, exclusive: true }, () => {
          server.off('error', onError);
          const addr = server.address();
          resolve(typeof addr === 'object' && addr ? addr.port : port);
        });
      });
    let port: number;
    try {
      port = await listen(KUBELET_PORT);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (err as NodeJS.ErrnoException).code !== 'EACCES') throw err;
      port = await listen(0);
      this.deps.log(`kubelet: ${ip}:${KUBELET_PORT} is taken; node ${name} serves its kubelet API on port ${port}`);
    }
    this.servers.set(name, server);
    return port;
  }

  async close(name: string): Promise<void> {
    const server = this.servers.get(name);
    if (!server) return;
    this.servers.delete(name);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.servers.keys()].map((n) => this.close(n)));
  }

  private handle(node: string, req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket as TLSSocket;
    const peer = socket.getPeerCertificate();
    if (!socket.authorized || !peer?.subject) return reply(res, 401, 'Unauthorized');
    const groups = ([] as string[]).concat(peer.subject.O ?? []);
    if (!groups.includes('system:masters')) {
      return reply(res, 403, `Forbidden (user=${peer.subject.CN ?? ''}, verb=get, resource=nodes, subresource(s)=[proxy])`);
    }
    const url = new URL(req.url ?? '/', 'https://kubelet');
    if (url.pathname === '/healthz') return reply(res, 200, 'ok');
    const m = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
    if (!m || req.method !== 'GET') return reply(res, 404, '404 page not found');
    const [namespace, podName, container] = m.slice(1).map(decodeURIComponent) as [string, string, string];
    const opts = parseLogOptions(url.searchParams);
    if (typeof opts === 'string') return reply(res, 400, opts);
    const target = this.deps.lookup(namespace, podName);
    if (!target || target.pod.spec?.nodeName !== node) return reply(res, 404, `pod "${podName}" does not exist`);
    const known = [...(target.pod.spec?.containers ?? []), ...(target.pod.spec?.initContainers ?? [])].some((c) => c.name === container);
    if (!known) return reply(res, 404, `container "${container}" not found in pod "${podName}"`);
    const chosen = selectInstance(target.status(container), podName, container, opts.previous);
    if ('code' in chosen) return reply(res, chosen.code, chosen.message);
    const dir = podLogDir(this.deps.runtimeDir, namespace, podName, target.pod.metadata?.uid ?? '');
    void serveLog(containerLogFile(dir, container, chosen.instance), opts, req, res);
  }
}

function reply(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

/** Sends the selected lines of one instance's log; with follow, then every new line until the instance ends or the client goes. */
async function serveLog(file: string, opts: LogOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let gone = false;
  req.on('close', () => {
    gone = true;
  });
  res.on('close', () => {
    gone = true;
  });
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  const limit = new ByteLimit(opts.limitBytes);
  const send = (text: string) => {
    const part = limit.take(text);
    if (part) res.write(part);
  };
  let offset = 0;
  let buf = Buffer.alloc(0);
  const readNew = (): string => {
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      return '';
    }
    if (size < offset) offset = 0; // rotated
    if (size === offset) return '';
    const fd = fs.openSync(file, 'r');
    try {
      const chunk = Buffer.alloc(size - offset);
      fs.readSync(fd, chunk, 0, chunk.length, offset);
      offset = size;
      buf = Buffer.concat([buf, chunk]);
    } finally {
      fs.closeSync(fd);
    }
    const end = buf.lastIndexOf(0x0a);
    if (end < 0) return '';
    const text = buf.subarray(0, end + 1).toString();
    buf = buf.subarray(end + 1);
    return text;
  };
  const first = selectEntries(parseCriLog(readNew()), opts);
  send(first.map((e) => formatEntry(e, opts.timestamps)).join(''));
  while (opts.follow && !gone && !limit.reached) {
    const open = isLogOpen(file);
    const entries = parseCriLog(readNew()).filter((e) => opts.sinceMs === undefined || e.ms >= opts.sinceMs);
    if (entries.length > 0) send(entries.map((e) => formatEntry(e, opts.timestamps)).join(''));
    if (!open) break;
    await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS));
  }
  if (!gone) res.end();
}
