import type { MediaReferences } from '../media/references.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { addSeconds, toTimestamp } from '../shared/time.js';
import type { FollowRepository } from '../social/ports.js';
import type { StoryRecord, StoryView } from './model.js';
import { STORY_TTL_SECONDS } from './model.js';
import type { PostRepository, StoryRepository } from './ports.js';
import { PostVisibility, viewerOf } from './visibility.js';
import { canModerate } from '../shared/actor.js';

/** Stories: visible for 24 hours to the author and their followers, then gone. */
export class StoryService {
  private readonly visibility: PostVisibility;

  constructor(
    private readonly stories: StoryRepository,
    private readonly posts: PostRepository,
    follows: FollowRepository,
    private readonly clock: Clock,
    /** Checks that a story's media names an uploaded file. */
    private readonly media: MediaReferences,
  ) {
    this.visibility = new PostVisibility(posts, follows);
  }

  async active(actor: Actor): Promise<StoryView[]> {
    return this.withAuthors(await this.stories.activeForViewer(actor.userId, this.now()));
  }

  async ofUser(actor: Actor, userId: number): Promise<StoryView[]> {
    const author = (await this.posts.authors([userId])).get(userId);
    if (!author) throw new NotFound('User not found', 'user_not_found');
    // A story reaches the audience of its author's posts.
    if (!(await this.visibility.canSeeAccount(viewerOf(actor), author))) return [];
    return this.withAuthors(await this.stories.activeOf([userId], this.now()));
  }

  async create(actor: Actor, input: { media: string; text?: string }): Promise<StoryView> {
    // Stored as a bare name, which the display resolves to uploads/stories/ (contract §36.6).
    const media = (await this.media.require(actor, 'media', input.media, ['stories'])).name;
    const text = (input.text ?? '').trim();
    if (text.length > 500) throw Invalid.field('text', 'must be at most 500 characters');
    const now = this.clock.now();
    const story = await this.stories.create({
      user_id: actor.userId,
      media,
      text,
      created_at: toTimestamp(now),
      expires_at: toTimestamp(addSeconds(now, STORY_TTL_SECONDS)),
    });
    const [view] = await this.withAuthors([story]);
    return view;
  }

  async delete(actor: Actor, storyId: number): Promise<void> {
    const story = await this.stories.findById(storyId);
    if (!story || story.expires_at <= this.now()) throw new NotFound('Story not found', 'story_not_found');
    if (story.user_id !== actor.userId && !canModerate(actor)) throw new Forbidden('Only the author can delete this story');
    await this.stories.delete(storyId);
  }

  purgeExpired(): Promise<number> {
    return this.stories.purgeExpired(this.now());
  }

  private now() {
    return toTimestamp(this.clock.now());
  }

  private async withAuthors(stories: StoryRecord[]): Promise<StoryView[]> {
    const authors = await this.posts.authors([...new Set(stories.map((s) => s.user_id))]);
    return stories.flatMap((s) => {
      const author = authors.get(s.user_id);
      return author ? [{ story: s, author }] : [];
    });
  }
}
