import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { UploadType } from '../media/reference.js';
import type { MediaReferences } from '../media/references.js';
import { canModerate, type Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { addSeconds, toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import {
  DEFAULT_MAX_GUESTS,
  MAX_GUESTS_LIMIT,
  MAX_LIVE_DESCRIPTION,
  MAX_LIVE_TITLE,
  VIEWER_PING_WINDOW_SECONDS,
  type LiveRecord,
} from './model.js';
import type { LiveRepository } from './ports.js';

/** Upload types a live background may come from: any uploaded image. */
export const BACKGROUND_SOURCES: readonly UploadType[] = ['posts', 'stories', 'album', 'group', 'avatar', 'event'];

export interface StartLiveInput {
  title: string;
  description?: string | null;
  is_public?: boolean;
  max_guests?: number;
}

export interface LiveView {
  live: LiveRecord;
  creator: UserRecord | null;
  current_viewers: number;
}

/**
 * Live broadcasts (lives.php). A user has at most one active live: starting one ends the others. A
 * live that is not public is unlisted (left out of the list, reachable by its id). Its creator, and
 * the platform's moderators, end it; the media server ends it too when its room closes.
 */
export class LiveService {
  constructor(
    private readonly lives: LiveRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** Checks that a background names an uploaded image or video. */
    private readonly media: MediaReferences,
  ) {}

  private now() {
    return toTimestamp(this.clock.now());
  }

  /**
   * Under the creator's lock, the creator's earlier active lives end (`replaced`) and the new one
   * starts: of two starts at once, the later ends the earlier.
   */
  async start(actor: Actor, input: StartLiveInput): Promise<LiveRecord> {
    const title = input.title.trim();
    if (title === '') throw Invalid.field('title', 'must not be empty');
    if (title.length > MAX_LIVE_TITLE) throw Invalid.field('title', `must be at most ${MAX_LIVE_TITLE} characters`);
    const description = (input.description ?? '').trim();
    if (description.length > MAX_LIVE_DESCRIPTION) throw Invalid.field('description', `must be at most ${MAX_LIVE_DESCRIPTION} characters`);
    const maxGuests = input.max_guests ?? DEFAULT_MAX_GUESTS;
    if (!Number.isInteger(maxGuests) || maxGuests < 0 || maxGuests > MAX_GUESTS_LIMIT)
      throw Invalid.field('max_guests', `must be a whole number from 0 to ${MAX_GUESTS_LIMIT}`);
    return this.uow.run(async () => {
      await this.lives.lockCreator(actor.userId);
      const now = this.now();
      await this.lives.endActiveOf(actor.userId, now, 'replaced');
      return this.lives.create({
        user_id: actor.userId,
        title,
        description,
        is_public: input.is_public ?? true,
        max_guests: maxGuests,
        created_at: now,
      });
    });
  }

  async list(actor: Actor, page: PageRequest): Promise<{ items: LiveView[]; meta: PageMeta }> {
    const { items, total } = await this.lives.listActive(actor.userId, page);
    return { items: await this.views(items), meta: pageMeta(page, total) };
  }

  async details(actor: Actor, liveId: number): Promise<LiveView> {
    const [view] = await this.views([await this.find(liveId)]);
    return view;
  }

  /** Ends the live (its creator or a platform moderator); ending an ended live changes nothing. */
  async end(actor: Actor, liveId: number): Promise<LiveRecord> {
    const live = await this.find(liveId);
    if (live.user_id !== actor.userId && !canModerate(actor)) throw new Forbidden('Only the creator can end this live', 'not_live_creator');
    await this.lives.end(live.id, this.now(), 'ended');
    return (await this.lives.findById(live.id))!;
  }

  /** A viewer's presence ping (every 60 s while watching); answers the live's viewer count. */
  async join(actor: Actor, liveId: number): Promise<number> {
    const live = await this.find(liveId);
    if (live.status !== 'active') throw new Conflict('This live has ended', 'live_ended');
    if (live.user_id !== actor.userId) await this.lives.pingViewer(live.id, actor.userId, this.now());
    return (await this.viewerCounts([live.id])).get(live.id) ?? 0;
  }

  /** Sets (or, with null, removes) the live's background image: its creator only. */
  async setBackground(actor: Actor, liveId: number, background: string | null): Promise<string | null> {
    const live = await this.find(liveId);
    if (live.user_id !== actor.userId) throw new Forbidden('Only the creator can change the background', 'not_live_creator');
    const value = await this.media.optional(actor, 'background_image', background, BACKGROUND_SOURCES);
    await this.lives.setBackground(live.id, value);
    return value;
  }

  async find(liveId: number): Promise<LiveRecord> {
    const live = await this.lives.findById(liveId);
    if (!live) throw new NotFound('Live not found', 'live_not_found');
    return live;
  }

  private viewerCounts(ids: number[]) {
    return this.lives.viewerCounts(ids, toTimestamp(addSeconds(this.clock.now(), -VIEWER_PING_WINDOW_SECONDS)));
  }

  private async views(items: LiveRecord[]): Promise<LiveView[]> {
    if (items.length === 0) return [];
    const creators = new Map((await this.users.findByIds([...new Set(items.map((l) => l.user_id))])).map((u) => [u.id, u]));
    const counts = await this.viewerCounts(items.filter((l) => l.status === 'active').map((l) => l.id));
    return items.map((live) => ({ live, creator: creators.get(live.user_id) ?? null, current_viewers: counts.get(live.id) ?? 0 }));
  }
}
