import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Accept,
  Activity,
  type Actor,
  Create,
  createFederation,
  Endpoints,
  type Federation,
  Follow,
  generateCryptoKeyPair,
  signRequest,
  isActor,
  MemoryKvStore,
  Note,
  PUBLIC_COLLECTION,
  Person,
  Undo,
} from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';

/**
 * A separate ActivityPub server on loopback, built on @fedify/fedify as another fediverse server
 * would be: one actor (`peer`), an inbox that records what arrives (Fedify verifies the signatures)
 * and accepts follows, an outbox of its notes. Tests drive it: follow a Plaza user, post a note.
 */
export interface FedifyPeer {
  origin: string;
  actorUrl: string;
  /** Every activity the peer's inbox accepted (signature verified), in order. */
  received: Activity[];
  /** Sends Follow to a Plaza actor URL; returns the Follow's id. */
  follow(actorUrl: string): Promise<string>;
  /** Publishes a public note: kept in the outbox and sent as Create(Note) to the peer's followers. */
  post(content: string): Promise<string>;
  /** A GET of `url` signed by the peer's key with Fedify's `signRequest` (as a Fedify server fetches). */
  signedGet(url: string, accept?: string): Promise<Response>;
  /** Fedify's `lookupObject` of a URL, with the peer's signed document loader or none; null when it fails. */
  lookup(url: string, signed: boolean): Promise<unknown>;
  /** Signs and sends the activity `build` makes (from the peer's actor id and origin) to a Plaza actor's inbox. */
  deliver(recipientActorUrl: string, build: (actor: URL, origin: string) => Activity): Promise<Activity>;
  close(): Promise<void>;
}

function toRequest(req: IncomingMessage, body: Buffer, origin: string): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  return new Request(`${origin}${req.url}`, {
    method: req.method,
    headers,
    body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
  });
}

async function answer(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((v, k) => res.setHeader(k, v));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export async function startFedifyPeer(): Promise<FedifyPeer> {
  let federation!: Federation<void>;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      federation
        .fetch(toRequest(req, Buffer.concat(chunks), origin), { contextData: undefined })
        .then((response) => answer(res, response))
        .catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  const received: Activity[] = [];
  const followers = new Map<string, Actor>();
  const notes: Note[] = [];

  federation = createFederation<void>({ kv: new MemoryKvStore(), origin, allowPrivateAddress: true });
  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      if (identifier !== 'peer') return null;
      const [key] = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: 'peer',
        name: 'Fedify Peer',
        summary: '<p>A test peer</p>',
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: key.cryptographicKey,
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => (identifier === 'peer' ? [keys] : []));
  // Each note at its id, as a Fedify server serves its objects.
  federation.setObjectDispatcher(
    Note,
    '/notes/{id}',
    (_ctx, values) => notes.find((n) => n.id?.href === `${origin}/notes/${values.id}`) ?? null,
  );
  federation.setOutboxDispatcher('/users/{identifier}/outbox', async (ctx, identifier) => {
    if (identifier !== 'peer') return null;
    const actor = ctx.getActorUri('peer');
    return {
      items: [...notes]
        .reverse()
        .map((note) => new Create({ id: new URL(`${note.id!.href}#create`), actor, object: note, tos: [PUBLIC_COLLECTION] })),
    };
  });
  federation
    .setInboxListeners('/users/{identifier}/inbox', '/inbox')
    .on(Follow, async (ctx, follow) => {
      received.push(follow);
      const follower = await follow.getActor(ctx);
      if (!isActor(follower) || !follower.id) return;
      followers.set(follower.id.href, follower);
      await ctx.sendActivity(
        { identifier: 'peer' },
        follower,
        new Accept({ id: new URL(`${origin}/accepts/${randomUUID()}`), actor: ctx.getActorUri('peer'), object: follow }),
      );
    })
    .on(Undo, async (_ctx, undo) => {
      received.push(undo);
      if (undo.actorId) followers.delete(undo.actorId.href);
    })
    .on(Accept, async (_ctx, accept) => {
      received.push(accept);
    })
    .on(Create, async (_ctx, create) => {
      received.push(create);
    })
    .on(Activity, async (_ctx, activity) => {
      received.push(activity);
    });

  const context = () => federation.createContext(new URL(origin), undefined);
  const actorUrl = `${origin}/users/peer`;

  return {
    origin,
    actorUrl,
    received,
    async follow(target) {
      const ctx = context();
      const recipient = await ctx.lookupObject(target);
      if (!isActor(recipient)) throw new Error(`${target} is not an actor`);
      const id = `${origin}/follows/${randomUUID()}`;
      await ctx.sendActivity(
        { identifier: 'peer' },
        recipient,
        new Follow({ id: new URL(id), actor: ctx.getActorUri('peer'), object: new URL(target) }),
      );
      return id;
    },
    async post(content) {
      const ctx = context();
      const id = `${origin}/notes/${randomUUID()}`;
      const note = new Note({
        id: new URL(id),
        attribution: ctx.getActorUri('peer'),
        content: `<p>${content}</p>`,
        published: Temporal.Now.instant(),
        tos: [PUBLIC_COLLECTION],
        url: new URL(id),
      });
      notes.push(note);
      const actor = ctx.getActorUri('peer');
      if (followers.size > 0) {
        await ctx.sendActivity(
          { identifier: 'peer' },
          [...followers.values()],
          new Create({ id: new URL(`${id}#create`), actor, object: note, tos: [PUBLIC_COLLECTION] }),
        );
      }
      return id;
    },
    async signedGet(url, accept = 'application/activity+json') {
      const signed = await signRequest(new Request(url, { headers: { Accept: accept } }), keys.privateKey, new URL(`${actorUrl}#main-key`));
      return fetch(signed);
    },
    async lookup(url, signed) {
      const ctx = context();
      const documentLoader = signed ? await ctx.getDocumentLoader({ identifier: 'peer' }) : ctx.documentLoader;
      return ctx.lookupObject(url, { documentLoader }).catch(() => null);
    },
    async deliver(recipientActorUrl, build) {
      const ctx = context();
      const recipient = await ctx.lookupObject(recipientActorUrl);
      if (!isActor(recipient)) throw new Error(`${recipientActorUrl} is not an actor`);
      const activity = build(ctx.getActorUri('peer'), origin);
      await ctx.sendActivity({ identifier: 'peer' }, recipient, activity);
      return activity;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
