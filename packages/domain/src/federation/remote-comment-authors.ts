import type { AuthorInfo, RemoteCommentAuthors, RemoteCommentReactions } from '../content/index.js';
import type { RemoteInteractionRepository } from './inbound-ports.js';
import { handleOf } from './model.js';
import type { RemoteActorRepository } from './ports.js';

/**
 * Remote actors as comment authors (comments.php, docs/decisions/0205), from the actor cache: the
 * `user_id` the wire shows is 0 (nobody's), `username` the handle without its first `@`. An actor
 * whose document was never cached (or was forgotten by Delete(Person)) is shown by its URL's host.
 */
export class CachedRemoteCommentAuthors implements RemoteCommentAuthors {
  constructor(private readonly actors: RemoteActorRepository) {}

  async of(actorUrls: string[]): Promise<Map<string, AuthorInfo>> {
    const known = await this.actors.findMany(actorUrls);
    const out = new Map<string, AuthorInfo>();
    for (const url of actorUrls) {
      const actor = known.get(url);
      let handle: string;
      let name: string;
      if (actor) {
        handle = handleOf(actor);
        name = actor.display_name;
      } else {
        const u = new URL(url);
        const last = decodeURIComponent(u.pathname.split('/').filter(Boolean).pop() ?? '') || u.host;
        handle = `@${last}@${u.host}`;
        name = last;
      }
      out.set(url, {
        id: 0,
        username: handle.slice(1),
        avatar: actor?.avatar ?? null,
        militant_badge: null,
        is_admin: false,
        is_moderator: false,
        is_technician: false,
        remote: { actor_url: url, handle, display_name: name },
      });
    }
    return out;
  }
}

/**
 * Remote actors' reactions on a wall comment (comment_reactions.php, docs/decisions/0241), with their
 * authors shown as remote comment authors are (user id 0, the handle as username).
 */
export class CachedRemoteCommentReactions implements RemoteCommentReactions {
  constructor(
    private readonly remote: Pick<RemoteInteractionRepository, 'commentReactions'>,
    private readonly authors: RemoteCommentAuthors,
  ) {}

  async of(commentId: number) {
    const rows = await this.remote.commentReactions(commentId);
    if (rows.length === 0) return [];
    const authors = await this.authors.of([...new Set(rows.map((r) => r.actor_url))]);
    return rows.flatMap((r) => {
      const author = authors.get(r.actor_url);
      return author ? [{ author, reaction_type: r.reaction_type, created_at: r.created_at }] : [];
    });
  }
}
