import type { EventView } from '@plaza/domain/events';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { zAvatar } from './user.js';
import { avatarOf, nameOf, zCount, zTimestamp, zWireId, wireTime } from './wire.js';

/**
 * An event (contract §23): list and details share one shape. `event_date` is the organiser's wall
 * time as given, not converted (docs/decisions/0037); `cover_image` and `image` are the same file.
 */
export const EventItem = z.object({
  id: zWireId,
  title: z.string(),
  description: z.string(),
  location: z.string(),
  event_date: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
  creator_id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  image: z.string().nullable(),
  cover_image: z.string().nullable(),
  participants_count: zCount,
  is_participating: z.boolean(),
  is_creator: z.boolean(),
  created_at: zTimestamp,
});

export function presentEvent(v: EventView, userId: number, p: PresenterContext): z.input<typeof EventItem> {
  const e = v.event;
  return {
    id: e.id,
    title: e.title,
    description: e.description,
    location: e.location,
    event_date: e.event_date,
    creator_id: e.creator_id,
    username: nameOf(v.creator),
    avatar: avatarOf(v.creator),
    image: e.image,
    cover_image: e.image,
    participants_count: e.participants_count,
    is_participating: v.is_participating,
    is_creator: e.creator_id === userId,
    created_at: wireTime(p, e.created_at),
  };
}
