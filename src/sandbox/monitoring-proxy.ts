/**
 * The sandbox's pod network as Prometheus reaches it. A pod's IP (`status.podIP`, `10.244.x.y`)
 * is no address of this machine: a pod whose process the sandbox runs listens on a loopback
 * address of its own (`127.4.<cluster>.<n>`), a simulated pod nowhere. Prometheus scrapes through
 * this HTTP proxy (its scrape jobs' `proxy_url`), which takes a request for a pod IP to the
 * process's loopback address, and answers 502 at once for a pod IP where nothing listens (a
 * simulated pod, a port the process does not listen on), as a refused connection fails a scrape.
 * Nothing leaves the machine: a pod IP could be a real address of the network it is on.
 */
import http from 'node:http';
import net from 'node:net';

/** The loopback address where the pod with this pod IP runs its processes, or undefined (a simulated pod, no such pod). */
export type PodAddressLookup = (podIP: string) => string | undefined;

/** How long a connection to a pod's process may take before the scrape fails (Prometheus's own timeout is shorter). */
const CONNECT_TIMEOUT_MS = 5000;

function fail(res: http.ServerResponse, code: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(code, { 'content-type': 'text/plain', connection: 'close' }).end(`fleetdeck sandbox: ${message}\n`);
}

/** `host:port` of a CONNECT request, `[v6]:port` included. */
function splitHostPort(authority: string): { host: string; port: number } | undefined {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
  return m ? { host: m[1]!, port: Number(m[2]) } : undefined;
}

export class PodProxy {
  private server: http.Server | undefined;

  constructor(private readonly lookup: PodAddressLookup) {}

  /** Where the pod IP's process listens; a loopback address is taken as it is. */
  private resolve(host: string): string | undefined {
    return net.isIP(host) === 4 && host.startsWith('127.') ? host : this.lookup(host);
  }

  /** A plain HTTP request through the proxy (`GET http://10.244.0.7:2379/metrics`). */
  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      fail(res, 400, 'this is a proxy: ask for an absolute http:// URL');
      return;
    }
    if (target.protocol !== 'http:')
      return fail(res, 400, `only http:// through a request (https:// through CONNECT), not ${target.protocol}`);
    const ip = this.resolve(target.hostname);
    if (!ip) return fail(res, 502, `nothing listens on ${target.host}: no process of the sandbox has that pod IP`);
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request(
      {
        host: ip,
        port: Number(target.port) || 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
        timeout: CONNECT_TIMEOUT_MS,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('error', (err) => fail(res, 502, `${target.host} (${ip}): ${err.message}`));
    req.pipe(upstream);
  }

  /** An HTTPS target: a tunnel to the process (`CONNECT 10.244.0.7:8443`). */
  private tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer): void {
    const hp = splitHostPort(req.url ?? '');
    const ip = hp && this.resolve(hp.host);
    if (!hp || !ip) {
      client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n');
      return;
    }
    const upstream = net.connect({ host: ip, port: hp.port, timeout: CONNECT_TIMEOUT_MS });
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n');
    });
    client.on('error', () => upstream.destroy());
  }

  /** Listens on 127.0.0.1 (a free port); resolves with the proxy's URL. */
  async start(): Promise<string> {
    const server = http.createServer((req, res) => this.forward(req, res));
    server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => this.tunnel(req, socket, head));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise((r) => server.close(r));
    server.closeAllConnections();
    await closed;
  }
}
