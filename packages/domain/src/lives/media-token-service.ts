import type { CallRepository } from '../calls/ports.js';
import { OPEN_STATUSES } from '../calls/model.js';
import type { MessageGroupRepository } from '../messaging/ports.js';
import { canModerate, type Actor } from '../shared/actor.js';
import { Conflict, Forbidden, Invalid, NotFound, Unavailable } from '../shared/errors.js';
import { liveIdOfRoom, userIdOfIdentity } from './model.js';
import type { LiveRepository, MediaServer } from './ports.js';

/** The lifetime of a media-server token (the clients' own signer used 6 h, contract §31). */
export const MEDIA_TOKEN_TTL_SECONDS = 6 * 3600;
export const MAX_IDENTITY_LENGTH = 128;
export const MAX_DISPLAY_NAME_LENGTH = 100;

export interface MediaTokenRequest {
  roomName?: string | null;
  identity?: string | null;
  name?: string | null;
  canPublish?: boolean;
  canPublishData?: boolean;
  canSubscribe?: boolean;
  /** The live the client means (contract §31); must be the live of `roomName` when sent. */
  liveId?: number | null;
}

export interface MediaTokenResult {
  token: string;
  url: string;
  expires_in: number;
  room: string;
  grants: { canPublish: boolean; canPublishData: boolean; canSubscribe: boolean };
}

/** The rooms a token may name: a live's, a group call's, or a technician's test room. */
type Room = { kind: 'live'; liveId: number } | { kind: 'group-call'; callId: number } | { kind: 'test' };

function roomOf(name: string): Room | null {
  const liveId = liveIdOfRoom(name);
  if (liveId !== null) return { kind: 'live', liveId };
  const call = /^group-call-(\d{1,15})$/.exec(name);
  if (call) return { kind: 'group-call', callId: Number(call[1]) };
  if (/^test-[A-Za-z0-9_-]{1,64}$/.test(name)) return { kind: 'test' };
  return null;
}

/**
 * Access tokens for the media server (lives.php?path=token). The server, not the client, decides the
 * grants: publishing (`canPublish`) is for the live's creator, its approved guests, a group call's
 * participants, and technicians in `test-…` rooms; a request to publish from anyone else gets a
 * subscribe-only token. The identity must be the caller's own (`u<userId>-…`), so nobody can appear in
 * a room as somebody else.
 */
export class MediaTokenService {
  constructor(
    private readonly lives: LiveRepository,
    private readonly calls: CallRepository,
    private readonly groups: MessageGroupRepository,
    private readonly media: MediaServer,
  ) {}

  async issue(actor: Actor, input: MediaTokenRequest): Promise<MediaTokenResult> {
    const roomName = required('roomName', input.roomName, 128);
    const identity = required('identity', input.identity, MAX_IDENTITY_LENGTH);
    const name = required('name', input.name, MAX_DISPLAY_NAME_LENGTH);
    const room = roomOf(roomName);
    if (!room) throw Invalid.field('roomName', 'must be live-<id>, group-call-<id> or test-<name>', 'invalid_room');
    if (userIdOfIdentity(identity) !== actor.userId)
      throw new Forbidden(`identity must be your own: u${actor.userId}-…`, 'identity_mismatch');
    const settings = await this.media.settings();
    if (!settings) throw new Unavailable('No media server is configured', 'media_server_unavailable');

    const wantsPublish = input.canPublish === true;
    let mayPublish = false;
    let mayPublishData = input.canPublishData !== false;
    if (input.liveId !== undefined && input.liveId !== null && (room.kind !== 'live' || room.liveId !== input.liveId)) {
      throw Invalid.field('liveId', 'must be the live of roomName (live-<liveId>)');
    }
    if (room.kind === 'live') {
      const live = await this.lives.findById(room.liveId);
      if (!live) throw new NotFound('Live not found', 'live_not_found');
      if (live.status !== 'active') throw new Conflict('This live has ended', 'live_ended');
      const creator = live.user_id === actor.userId;
      if (live.is_suspended && !creator && !canModerate(actor)) throw new Forbidden('This live is suspended', 'live_suspended');
      mayPublish = !live.is_suspended && (creator || (await this.lives.guest(live.id, actor.userId))?.status === 'approved');
      // The chat travels over data messages: a user blocked from the chat gets no data grant.
      if (await this.lives.isChatBlocked(live.id, actor.userId)) mayPublishData = false;
    } else if (room.kind === 'group-call') {
      const call = await this.calls.findById(room.callId);
      const inCall =
        call !== null &&
        ((await this.calls.participant(call.id, actor.userId)) !== null ||
          (call.group_id !== null && (await this.groups.membership(call.group_id, actor.userId)) !== null));
      if (!call || !inCall) throw new NotFound('Call not found', 'call_not_found');
      if (!OPEN_STATUSES.includes(call.status)) throw new Conflict(`The call is ${call.status}`, `call_${call.status}`);
      mayPublish = true;
    } else {
      if (!actor.isTechnician) throw new Forbidden('Test rooms are for technicians', 'not_technician');
      mayPublish = true;
    }
    const grants = { canPublish: wantsPublish && mayPublish, canPublishData: mayPublishData, canSubscribe: input.canSubscribe !== false };
    const token = await this.media.issueToken({ identity, name, room: roomName, ...grants, ttlSeconds: MEDIA_TOKEN_TTL_SECONDS });
    return { token, url: settings.url, expires_in: MEDIA_TOKEN_TTL_SECONDS, room: roomName, grants };
  }
}

function required(field: string, value: string | null | undefined, max: number): string {
  const v = value?.trim() ?? '';
  if (v === '') throw Invalid.field(field, 'is required', 'missing_field');
  if (v.length > max) throw Invalid.field(field, `must be at most ${max} characters`);
  return v;
}
