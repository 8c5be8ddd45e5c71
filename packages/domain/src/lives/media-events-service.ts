import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/time.js';
import { liveIdOfRoom, userIdOfIdentity } from './model.js';
import type { LiveRepository, MediaServer } from './ports.js';

/**
 * The media server's webhook: signed events that end lives whose room closed and keep the viewer
 * count exact. Events about other rooms (group calls, test rooms) or of other kinds are accepted and
 * ignored, so the media server does not retry them.
 */
export class MediaEventsService {
  constructor(
    private readonly lives: LiveRepository,
    private readonly media: MediaServer,
    private readonly clock: Clock,
  ) {}

  async receive(rawBody: string, authorization: string | undefined): Promise<{ event: string; handled: boolean }> {
    const event = await this.media.verifyEvent(rawBody, authorization);
    const liveId = event.room ? liveIdOfRoom(event.room) : null;
    if (liveId === null) return { event: event.event, handled: false };
    const now = toTimestamp(this.clock.now());
    if (event.event === 'room_finished') {
      return { event: event.event, handled: await this.lives.end(liveId, now, 'room_finished') };
    }
    if (event.event === 'participant_joined' || event.event === 'participant_left') {
      const userId = event.identity ? userIdOfIdentity(event.identity) : null;
      const live = userId !== null ? await this.lives.findById(liveId) : null;
      // The creator broadcasts; only the others are viewers.
      if (!live || userId === null || live.user_id === userId) return { event: event.event, handled: false };
      await this.lives.setMediaPresence(liveId, userId, event.event === 'participant_joined', now);
      return { event: event.event, handled: true };
    }
    return { event: event.event, handled: false };
  }
}
