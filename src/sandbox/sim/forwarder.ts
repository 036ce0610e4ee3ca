import net from 'node:net';

/** Where a forwarded connection goes. */
export interface Backend {
  ip: string;
  port: number;
}

/** Listens on one address and port and pipes each connection to a backend chosen for it. */
export class Forwarder {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private next = 0;
  listening = false;

  constructor(
    readonly ip: string,
    readonly port: number,
    public backends: () => Backend[],
  ) {
    this.server = net.createServer((client) => this.handle(client));
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      this.server.listen(this.port, this.ip, () => {
        this.server.off('error', onError);
        this.server.on('error', () => {});
        this.listening = true;
        resolve();
      });
    });
  }

  private handle(client: net.Socket): void {
    const list = this.backends();
    if (list.length === 0) {
      client.destroy();
      return;
    }
    const b = list[this.next++ % list.length]!;
    const upstream = net.connect({ host: b.ip, port: b.port });
    this.sockets.add(client);
    this.sockets.add(upstream);
    const done = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', done).on('close', done);
    upstream.on('error', done).on('close', done);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (!this.listening) return Promise.resolve();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
