import type { UserRecord } from '../accounts/user.js';
import type { MessageGroupRecord } from '../messaging/ports.js';
import type { PushMessage } from '../notifications/ports.js';
import type { CallRecord } from './model.js';

/**
 * Above this, the offer stays out of the push: OneSignal's additional data and an ntfy message both
 * cap the payload at a few kilobytes. The client then reads the offer from calls.php?action=poll
 * (contract §32.1: push, else call info, else history).
 */
export const MAX_PUSHED_OFFER = 1_500;

/** The incoming-call push of contract §33.1, with the keys both clients read first. */
export function incomingCallPush(call: CallRecord, caller: UserRecord, group: MessageGroupRecord | null): PushMessage {
  const name = caller.display_name?.trim() || caller.username;
  const data: Record<string, string> = {
    type: 'call',
    call_id: String(call.id),
    caller_id: String(caller.id),
    caller_name: name,
    caller_avatar: caller.avatar ?? '',
    call_type: call.call_type,
    is_video: call.call_type === 'video' ? 'true' : 'false',
    is_group_call: group ? 'true' : 'false',
  };
  if (group) {
    data.group_id = String(group.id);
    data.group_name = group.name;
  }
  if (call.offer_sdp && call.offer_sdp.length <= MAX_PUSHED_OFFER) data.offer_sdp = call.offer_sdp;
  return {
    title: '📞 Appel entrant',
    body: group ? `${name} lance un appel dans ${group.name}` : `${name} vous appelle`,
    data,
  };
}
