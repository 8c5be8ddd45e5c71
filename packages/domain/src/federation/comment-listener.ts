import type { UserRepository } from '../accounts/ports.js';
import type { CommentEvent, CommentEventListener } from '../content/comment-events.js';
import type { CommentRecord, PostRecord } from '../content/model.js';
import type { CommentRepository } from '../content/ports.js';
import type { RemoteInteractionRepository } from './inbound-ports.js';
import type { FederationOutbox, RemoteActorRepository, RemoteFollowRepository } from './ports.js';
import { federationAudienceOf } from './rules.js';

/** The remote repliers of a thread a comment reaches at most (the earliest ones). */
export const MAX_THREAD_PARTICIPANTS = 50;
/** The replies below a removed comment whose Delete is sent with its own, at most. */
const MAX_REMOVED_REPLIES = 200;

/**
 * A local user's comment on a local wall post, as a reply Note (docs/decisions/0240): Create when
 * written, Update when edited, Delete when removed (with the local replies below it, which go with
 * it). It reaches the post's audience and never more: for a public account's post, the remote
 * followers of the post's author and of the commenter, and every remote actor who replied in the
 * thread; for a private account's post, the author's remote followers alone. A post that does not
 * federate (its author gone, any other surface) sends nothing, nor do replies that came from other
 * servers (their own server sent them). Runs in the comment's unit of work: it only queues.
 */
export class FederationCommentListener implements CommentEventListener {
  constructor(
    private readonly users: UserRepository,
    private readonly follows: RemoteFollowRepository,
    private readonly actors: RemoteActorRepository,
    private readonly remote: RemoteInteractionRepository,
    private readonly comments: CommentRepository,
    private readonly outbox: FederationOutbox,
  ) {}

  written({ comment, post }: CommentEvent): Promise<void> {
    return this.send('create', comment, post);
  }

  edited({ comment, post }: CommentEvent): Promise<void> {
    return this.send('update', comment, post);
  }

  async removed({ comment, post }: CommentEvent): Promise<void> {
    await this.send('delete', comment, post);
    for (const reply of await this.repliesBelow(comment)) await this.send('delete', reply, post);
  }

  private async send(kind: 'create' | 'update' | 'delete', comment: CommentRecord, post: PostRecord): Promise<void> {
    if (comment.user_id <= 0 || comment.remote_actor_url) return;
    const owner = await this.users.findById(post.user_id);
    if (!owner || owner.deleted_at) return;
    // Wall posts only reach here (group and page comments have services of their own): the wall's rule decides.
    const audience = federationAudienceOf({ kind: 'account', authorId: owner.id, isPrivate: owner.is_private });
    if (!audience) return;
    const author = comment.user_id === owner.id ? owner : await this.users.findById(comment.user_id);
    if (!author || author.deleted_at) return;

    const followersOf = audience === 'public' && author.id !== owner.id ? [owner.id, author.id] : [owner.id];
    // The remote author of the comment answered is named (cc) so that its server tells them; a
    // followers-only post's thread reaches no one beyond the followers, so there only while they follow.
    const parent = comment.parent_id ? await this.comments.findById(comment.parent_id) : null;
    let answered = parent?.remote_actor_url ?? null;
    if (answered && audience === 'followers' && !(await this.remote.isFollower(owner.id, answered))) answered = null;
    const participants = audience === 'public' ? await this.remote.participants(post.id, MAX_THREAD_PARTICIPANTS) : [];
    const recipients = [...new Set([...participants, ...(answered ? [answered] : [])])];
    const known = recipients.length > 0 ? await this.actors.findMany(recipients) : new Map();
    const inboxes = [
      ...new Set(recipients.flatMap((url) => (known.has(url) ? [known.get(url)!.shared_inbox_url ?? known.get(url)!.inbox_url] : []))),
    ];

    if (inboxes.length === 0) {
      const followed = await Promise.all(followersOf.map((id) => this.follows.hasFollowers(id)));
      if (!followed.some(Boolean)) return;
    }
    await this.outbox.comment(kind, { comment, author, owner, audience, followersOf, inboxes, ccs: answered ? [answered] : [] });
  }

  /** The local replies below a comment (level by level), whose Notes go with it. */
  private async repliesBelow(comment: CommentRecord): Promise<CommentRecord[]> {
    const below: CommentRecord[] = [];
    for (let level = [comment.id]; level.length > 0 && below.length < MAX_REMOVED_REPLIES; ) {
      const replies = await this.comments.replies(comment.post_id, level);
      below.push(...replies);
      level = replies.map((r) => r.id);
    }
    return below.slice(0, MAX_REMOVED_REPLIES);
  }
}
