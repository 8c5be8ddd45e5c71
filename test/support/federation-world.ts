import { startFedifyPeer, type FedifyPeer } from './fedify-peer.js';
import { freePort } from './free-port.js';
import { startTestServer, type TestServer } from './server.js';
import { startStrictServer, type StrictServer } from './strict-verifier.js';

/**
 * What the federation tests talk across: a Plaza federating on its own loopback origin (private
 * addresses allowed, since the remote servers are on loopback too), the strict verifier (a server
 * applying Mastodon's rules) and, unless left out, the Fedify peer.
 */
export class FederationWorld {
  private constructor(
    readonly server: TestServer,
    readonly strict: StrictServer,
    private readonly fedify: FedifyPeer | null,
    readonly origin: string,
  ) {}

  static async start(options: { peer?: boolean } = {}): Promise<FederationWorld> {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server = await startTestServer({ env: { PORT: String(port), API_PUBLIC_URL: origin, API_FEDERATION_ALLOW_PRIVATE: 'true' } });
    const fedify = options.peer === false ? null : await startFedifyPeer();
    return new FederationWorld(server, await startStrictServer(), fedify, origin);
  }

  /** The Fedify peer; a world started with `peer: false` has none. */
  get peer(): FedifyPeer {
    if (!this.fedify) throw new Error('this federation world was started without the Fedify peer');
    return this.fedify;
  }

  /** Plaza's host and port, as handles and WebFinger name it. */
  get domain(): string {
    return new URL(this.origin).host;
  }

  actorOf(u: { username: string }): string {
    return `${this.origin}/fediverse/actor.php?username=${u.username}`;
  }

  inboxOf(u: { username: string }): string {
    return `${this.origin}/fediverse/inbox/${u.username}`;
  }

  /** Runs the federation queue job until nothing is left (inbound tasks, fan-outs, deliveries). */
  async drain(): Promise<void> {
    for (let i = 0; i < 5; i++) await this.server.runJob('federation-queue');
  }

  async close(): Promise<void> {
    await this.fedify?.close();
    await this.strict.close();
    await this.server.close();
  }
}
