/**
 * A TCP relay in front of a real API server (bytes forwarded as they are: TLS end to end) that
 * can hold what clients send: while held, a new connection waits before it reaches the server,
 * and what a client writes on a connection already open (the next request on a keep-alive
 * connection) waits in the relay. Requests are "gone" for that long, as behind a network stall;
 * the server's answers still flow.
 */
import net from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** While held: what the client wrote, kept until release. */
  stalled?: Buffer[];
  onData?: (chunk: Buffer) => void;
}

export class Relay {
  private readonly server: net.Server;
  private readonly waiting: (() => void)[] = [];
  private readonly sockets = new Set<net.Socket>();
  private readonly pairs = new Set<Pair>();
  private holding = false;
  /** Connections accepted so far. */
  accepted = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => this.accept(client));
  }

  /** Listens on a free loopback port; resolves with it. */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as net.AddressInfo).port));
    });
  }

  /** From now on, nothing a client sends reaches the server until release(). */
  hold(): void {
    this.holding = true;
    for (const p of this.pairs) this.stall(p);
  }

  /** How many connections wait, or hold a request that waits. */
  get held(): number {
    return this.waiting.length + [...this.pairs].filter((p) => (p.stalled?.length ?? 0) > 0).length;
  }

  release(): void {
    this.holding = false;
    for (const p of this.pairs) this.resume(p);
    for (const connect of this.waiting.splice(0)) connect();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }

  private stall(p: Pair): void {
    if (p.onData) return;
    p.client.unpipe(p.upstream);
    p.stalled = [];
    p.onData = (chunk) => p.stalled?.push(chunk);
    p.client.on('data', p.onData);
    // unpipe() paused the socket: a 'data' listener alone does not start it again.
    p.client.resume();
  }

  private resume(p: Pair): void {
    if (!p.onData) return;
    p.client.off('data', p.onData);
    for (const chunk of p.stalled ?? []) p.upstream.write(chunk);
    p.onData = undefined;
    p.stalled = undefined;
    p.client.pipe(p.upstream);
  }

  private accept(client: net.Socket): void {
    this.accepted++;
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    const connect = () => {
      if (client.destroyed) return;
      const upstream = net.connect(this.target.port, this.target.host);
      const pair: Pair = { client, upstream };
      this.pairs.add(pair);
      this.sockets.add(upstream);
      upstream.on('close', () => {
        this.sockets.delete(upstream);
        this.pairs.delete(pair);
        client.destroy();
      });
      upstream.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    };
    if (this.holding) this.waiting.push(connect);
    else connect();
  }
}

/** The context's KubeConfig with its server replaced by the relay's address (same CA, same user). */
export function throughRelay(kc: KubeConfig, port: number): KubeConfig {
  const cluster = kc.getCurrentCluster()!;
  const user = kc.getCurrentUser()!;
  const relayed = new KubeConfig();
  relayed.loadFromOptions({
    clusters: [{ ...cluster, server: `https://127.0.0.1:${port}` }],
    users: [user],
    contexts: [{ name: 'relayed', cluster: cluster.name, user: user.name }],
    currentContext: 'relayed',
  });
  return relayed;
}
