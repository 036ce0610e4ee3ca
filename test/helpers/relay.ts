/**
 * A TCP relay in front of a real API server (bytes forwarded as they are: TLS end to end), that
 * can hold new connections: a held client is connected to the relay but reaches the server only
 * once released — the watch is "gone" for that long, as behind a network outage.
 */
import net from 'node:net';

export class Relay {
  private readonly server: net.Server;
  private readonly waiting: (() => void)[] = [];
  private readonly sockets = new Set<net.Socket>();
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

  /** From now on, new connections wait until release(). */
  hold(): void {
    this.holding = true;
  }

  /** How many connections wait. */
  get held(): number {
    return this.waiting.length;
  }

  release(): void {
    this.holding = false;
    for (const connect of this.waiting.splice(0)) connect();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }

  private accept(client: net.Socket): void {
    this.accepted++;
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    const connect = () => {
      if (client.destroyed) return;
      const upstream = net.connect(this.target.port, this.target.host);
      this.sockets.add(upstream);
      upstream.on('close', () => {
        this.sockets.delete(upstream);
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
