import type { UserRepository } from '../accounts/ports.js';
import type { MessageGroupRepository } from '../messaging/ports.js';
import type { PushSender } from '../notifications/ports.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { toTimestamp } from '../shared/time.js';
import { CALL_TYPES, type CallType } from './model.js';

export interface TalkInviteInput {
  group_id: number;
  room_token: string;
  call_type?: string;
  /** The conference room's address; built from the configured conference server when absent. */
  room_url?: string | null;
}

export interface TalkInvite {
  group_id: number;
  group_name: string;
  room_token: string;
  room_url: string;
  call_type: CallType;
  message_id: number;
  invited: number;
}

const ROOM_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `initiate_talk`: invites a messaging group to a call held on an external conference server
 * (Nextcloud Talk in the client's history). The link is posted in the group's chat, so it stays
 * there for whoever opens the group later, and every other member gets a `talk_invite` push
 * (contract §33.1). Only members may invite their group.
 */
export class TalkInviteService {
  constructor(
    private readonly groups: MessageGroupRepository,
    private readonly users: UserRepository,
    private readonly push: PushSender,
    private readonly clock: Clock,
    private readonly options: { conferenceServerUrl: string | null },
  ) {}

  async invite(actor: Actor, input: TalkInviteInput): Promise<TalkInvite> {
    const roomToken = input.room_token.trim();
    if (!ROOM_TOKEN.test(roomToken)) throw Invalid.field('room_token', 'must be 1 to 64 letters, digits, - or _');
    const callType = (input.call_type ?? 'video') as CallType;
    if (!CALL_TYPES.includes(callType)) throw Invalid.field('call_type', `must be one of ${CALL_TYPES.join(', ')}`);
    const roomUrl = this.roomUrl(roomToken, input.room_url);
    const group = await this.groups.findById(input.group_id);
    if (!group) throw new NotFound('Group not found', 'group_not_found');
    if (!(await this.groups.membership(group.id, actor.userId))) throw new Forbidden('You are not a member of this group', 'not_member');

    const now = this.clock.now();
    const label = callType === 'video' ? 'Appel vidéo' : 'Appel audio';
    const message = await this.groups.createMessage({
      group_id: group.id,
      sender_id: actor.userId,
      content: `📞 ${label} : ${roomUrl}`,
      media: null,
      media_type: null,
      parent_id: null,
      created_at: toTimestamp(now),
      expires_at: group.auto_delete_time > 0 ? toTimestamp(new Date(now.getTime() + group.auto_delete_time * 60_000)) : null,
    });
    const inviter = await this.users.findById(actor.userId);
    const name = inviter?.display_name?.trim() || actor.username;
    const others = (await this.groups.members(group.id)).filter((m) => m.user_id !== actor.userId);
    for (const m of others) {
      await this.push.send(m.user_id, {
        title: `📞 ${group.name}`,
        body: `${name} vous invite à un ${label.toLowerCase()}`,
        data: {
          type: 'talk_invite',
          room_token: roomToken,
          room_url: roomUrl,
          group_id: String(group.id),
          group_name: group.name,
          call_type: callType,
          is_video: callType === 'video' ? 'true' : 'false',
          caller_id: String(actor.userId),
          caller_name: name,
        },
      });
    }
    return {
      group_id: group.id,
      group_name: group.name,
      room_token: roomToken,
      room_url: roomUrl,
      call_type: callType,
      message_id: message.id,
      invited: others.length,
    };
  }

  private roomUrl(token: string, given: string | null | undefined): string {
    if (given !== undefined && given !== null && given.trim() !== '') {
      let url: URL;
      try {
        url = new URL(given.trim());
      } catch {
        throw Invalid.field('room_url', 'must be an https:// URL');
      }
      if (url.protocol !== 'https:') throw Invalid.field('room_url', 'must be an https:// URL');
      return url.toString();
    }
    if (!this.options.conferenceServerUrl)
      throw Invalid.field('room_url', 'is required: no conference server is configured (TALK_SERVER_URL)');
    return `${this.options.conferenceServerUrl.replace(/\/+$/, '')}/call/${token}`;
  }
}
