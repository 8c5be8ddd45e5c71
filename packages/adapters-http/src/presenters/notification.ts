import type { NotificationView } from '@plaza/domain/notifications';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { zAvatar } from './user.js';
import { zTimestamp, zWireId, wireTime } from './wire.js';

/**
 * A notification item as contract §17 reads it, with both spellings the two clients use. `type` is an
 * open vocabulary on the client side (unknown kinds render as generic text), so it is any snake_case word.
 */
export const NotificationItem = z.object({
  id: zWireId,
  type: z.string().regex(/^[a-z][a-z_]*$/),
  from_user_id: zWireId,
  from_username: z.string(),
  username: z.string(),
  from_avatar: zAvatar,
  avatar: zAvatar,
  content: z.string(),
  message: z.string(),
  reaction_type: z.string().nullable(),
  post_id: zWireId.nullable(),
  comment_id: zWireId.nullable(),
  group_id: zWireId.nullable(),
  /** The community group's name, with `group_id` (invitations, requests, group content). */
  group_name: z.string().nullable(),
  link: z.string().nullable(),
  is_read: z.boolean(),
  created_at: zTimestamp,
});

export function presentNotification(
  { notification: n, from, group_name }: NotificationView,
  p: PresenterContext,
): z.input<typeof NotificationItem> {
  const avatar = from ? (from.avatar ?? 'default.svg') : 'default.svg';
  return {
    id: n.id,
    type: n.type,
    // The client types from_user_id as a non-null int; a system notification (the test push) is
    // attributed to its recipient, whose profile is a harmless place for a tap to land.
    from_user_id: n.from_user_id ?? n.user_id,
    from_username: from?.username ?? 'Plaza',
    username: from?.username ?? 'Plaza',
    from_avatar: avatar,
    avatar,
    content: n.content ?? '',
    message: n.content ?? '',
    reaction_type: n.reaction_type,
    post_id: n.post_id,
    comment_id: n.comment_id,
    group_id: n.group_id,
    group_name,
    link: n.link,
    is_read: n.is_read,
    created_at: wireTime(p, n.created_at),
  };
}
