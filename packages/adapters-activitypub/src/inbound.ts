import { Announce, EmojiReact, isActor, Like, Note, type Activity, type InboxContext, type Object as ApObject } from '@fedify/fedify';
import { toTimestamp } from '@plaza/domain';
import type { InboundInteractions, LocalObject } from '@plaza/domain/federation';
import { type Loaders, toRemoteActor } from './mapping.js';
import type { FederationUrls } from './urls.js';

/** What the inbox tells at debug level: every activity it drops, with why. */
export interface InboundLog {
  debug(details: Record<string, unknown>, message: string): void;
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/**
 * The inbox side of remote actors' interactions with local content (issue 29, item 2), on Fedify's
 * vocabulary: it reads the activity, finds the local object it names (FederationUrls.localObjectOf)
 * and hands plain data to `InboundInteractions`. Fedify verified the signature and that the key is
 * the activity's actor's before any of this runs, so `activity.actorId` is who signed it.
 */
export class InboundActivities {
  constructor(
    private readonly urls: FederationUrls,
    private readonly interactions: InboundInteractions,
    private readonly log: InboundLog,
    private readonly now: () => Date,
  ) {}

  private dropped(activity: Activity, reason: string): void {
    this.log.debug(
      { activity_id: activity.id?.href ?? null, type: activity.constructor.name, actor: activity.actorId?.href ?? null, reason },
      'inbound activity dropped',
    );
  }

  /** Whether the URL names something under our origin (a local object that may not exist). */
  private ours(url: URL): boolean {
    return url.origin === this.urls.origin;
  }

  private local(url: URL | null | undefined): LocalObject | null {
    return url ? this.urls.localObjectOf(url.href) : null;
  }

  private loadersOf(ctx: InboxContext<void>): Loaders {
    return { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
  }

  /**
   * Create or Update whose object is a reply to a local object, an edit of a stored reply, or (Update)
   * an actor's own document. True when it was about local content or an actor and is dealt with here
   * (stored or dropped); false for a note that the remote notes feed may keep.
   */
  async noteOrActor(ctx: InboxContext<void>, activity: Activity, kind: 'create' | 'update', object: ApObject | null): Promise<boolean> {
    const actorUrl = activity.actorId?.href;
    if (!actorUrl) return false;
    if (kind === 'update' && object && isActor(object)) {
      if (object.id?.href !== actorUrl) {
        this.dropped(activity, 'actor_mismatch');
        return true;
      }
      const remote = await toRemoteActor(object, this.loadersOf(ctx), this.now());
      if (!remote || !(await this.interactions.actorUpdated(remote))) this.dropped(activity, 'unknown_actor');
      return true;
    }
    if (!(object instanceof Note) || !object.id) return false;
    const author = object.attributionId?.href ?? actorUrl;
    if (kind === 'update' && (await this.interactions.replyEdited(object.id.href, actorUrl, text(object.content)))) return true;
    const replyTo = object.replyTargetId;
    if (!replyTo || !this.ours(replyTo)) return false;
    if (author !== actorUrl || object.id.href.length > 512) {
      this.dropped(activity, 'not_the_author');
      return true;
    }
    const target = this.local(replyTo);
    if (!target) {
      this.dropped(activity, 'unknown_object');
      return true;
    }
    // An Update of a reply never stored (dropped before, or arriving first) is taken as the reply.
    const actor = await activity.getActor(ctx).catch(() => null);
    const remote = isActor(actor) && actor.id?.href === actorUrl ? await toRemoteActor(actor, this.loadersOf(ctx), this.now()) : null;
    const published = object.published ? new Date(object.published.epochMilliseconds) : this.now();
    const result = await this.interactions.replyReceived(
      { object_id: object.id.href, actor_url: actorUrl, content: text(object.content), published_at: toTimestamp(published) },
      target,
      remote,
    );
    if (typeof result === 'string') this.dropped(activity, result);
    return true;
  }

  /** Delete of a Note (a stored reply) or of the actor itself. */
  async deleted(activity: Activity): Promise<void> {
    const actorUrl = activity.actorId?.href;
    const objectUrl = activity.objectId?.href;
    if (!actorUrl || !objectUrl) return;
    if (objectUrl === actorUrl) {
      await this.interactions.actorDeleted(actorUrl);
      return;
    }
    await this.interactions.replyDeleted(objectUrl, actorUrl);
  }

  /** Like (Misskey's carries its emoji as `content`) and EmojiReact of a local post or comment (docs/decisions/0241). */
  async reacted(activity: Like | EmojiReact): Promise<void> {
    const actorUrl = activity.actorId?.href;
    if (!actorUrl || !activity.id || activity.id.href.length > 512 || actorUrl.length > 512) return this.dropped(activity, 'malformed');
    const target = this.local(activity.objectId);
    if (!target) return this.dropped(activity, 'unknown_object');
    const emoji = text(activity.content).trim();
    const result = await this.interactions.reacted(
      actorUrl,
      activity.id.href,
      target,
      activity instanceof EmojiReact || emoji ? emoji.slice(0, 64) : null,
    );
    if (result === 'duplicate' || result === 'suspended' || result === 'unknown_object' || result === 'not_visible')
      this.dropped(activity, result);
  }

  async announced(activity: Announce): Promise<void> {
    const actorUrl = activity.actorId?.href;
    if (!actorUrl || !activity.id || activity.id.href.length > 512 || actorUrl.length > 512) return this.dropped(activity, 'malformed');
    const target = this.local(activity.objectId);
    // A boost of a remote note is none of ours (a followed actor's boosts are not in the feed).
    if (!target) return this.dropped(activity, 'unknown_object');
    const result = await this.interactions.announced(actorUrl, activity.id.href, target);
    if (result !== true) this.dropped(activity, result === false ? 'duplicate' : result);
  }

  /**
   * Undo of a Like, an EmojiReact or an Announce: what the Undo's own actor added, and only that.
   * The undone activity may come embedded (its actor must be the Undo's) or by id alone.
   * True when the object was one of these (or, named by id, matched one).
   */
  async undone(undo: Activity, object: ApObject | null): Promise<boolean> {
    const actorUrl = undo.actorId?.href;
    const id = (object?.id ?? undo.objectId)?.href;
    if (!actorUrl || !id) return false;
    if (object instanceof Like || object instanceof EmojiReact || object instanceof Announce) {
      if (object.actorId?.href !== actorUrl) {
        this.dropped(undo, 'actor_mismatch');
        return true;
      }
      const removed =
        object instanceof Announce
          ? await this.interactions.announceUndone(actorUrl, id)
          : await this.interactions.reactionUndone(actorUrl, id);
      if (!removed) this.dropped(undo, 'nothing_to_undo');
      return true;
    }
    if (object !== null) return false;
    return (await this.interactions.reactionUndone(actorUrl, id)) || (await this.interactions.announceUndone(actorUrl, id));
  }

  /** Any activity no listener takes: answered 202, dropped, told at debug level. */
  unhandled(activity: Activity): void {
    this.dropped(activity, 'unhandled_type');
  }
}
