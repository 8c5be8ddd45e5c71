import type { AuthorInfo, RemoteCommentAuthors } from '../content/index.js';
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
