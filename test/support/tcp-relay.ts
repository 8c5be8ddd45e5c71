import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on a loopback port to another address (MySQL), that a test can cut and restore, or start
 * late: the database "goes away" or "comes up" without touching the real server.
 */
export class TcpRelay {
  private server: Server | null = null;
  private sockets = new Set<Socket>();
  port = 0;
  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens on `port` (a free one when 0) and forwards every connection. */
  async start(port = 0): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    this.port = (this.server!.address() as { port: number }).port;
  }

  /** Drops every connection and stops listening: the port refuses connections until `start(port)`. */
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (this.server?.listening) await new Promise<void>((r) => this.server!.close(() => r()));
  }
}

/** A loopback port nothing listens on (free a moment ago). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
