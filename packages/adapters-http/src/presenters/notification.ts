import type { NotificationView } from '@plaza/domain';
import type { PresenterContext } from './context.js';

/** A notification item as contract §17 reads it, with both spellings the two clients use. */
export function presentNotification({ notification: n, from }: NotificationView, p: PresenterContext) {
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
    link: n.link,
    is_read: n.is_read,
    created_at: p.formatTime(n.created_at),
  };
}
