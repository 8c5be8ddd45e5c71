import { pageRequest } from '@plaza/domain';
import {
  GUEST_STATUSES,
  LIVE_REPORT_REASONS,
  MAX_GUEST_MESSAGE,
  MAX_LIVE_COMMENT,
  MAX_LIVE_DESCRIPTION,
  MAX_REPORT_DESCRIPTION,
  type LiveChatService,
  type LiveModerationService,
  type LiveService,
  type LiveStageService,
  type MediaEventsService,
  type MediaTokenService,
} from '@plaza/domain/lives';
import { z } from 'zod';
import { paginationQuery, zFlag, zId } from '../http/fields.js';
import { op, type AnyOperation, type Script } from '../http/operation.js';
import { readRawBody } from '../http/raw-body.js';
import type { PresenterContext } from '../presenters/context.js';
import {
  GuestItem,
  guestRequestStatus,
  LiveCommentItem,
  LiveItem,
  LiveReportEntry,
  ModerationStatePayload,
  presentGuest,
  presentLive,
  presentLiveComment,
  presentLiveReport,
} from '../presenters/live.js';
import { PageMetaWire, zCount, zWireId } from '../presenters/wire.js';

export interface LivesServices {
  lives: LiveService;
  stage: LiveStageService;
  tokens: MediaTokenService;
  events: MediaEventsService;
  chat: LiveChatService;
  moderation: LiveModerationService;
}

const idParam = z.object({ id: zId });
const guestParam = z.object({ id: zId, user_id: zId });
const userParam = guestParam;
/** Webhook bodies are small JSON documents; anything bigger is not an event. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * lives.php: live broadcasts, routed by `?path=` (contract §30), the media-server token (§31) and the
 * media server's signed webhook (`POST ?path=webhook`, docs/decisions/0021).
 */
/** Also the library's check (docs/decisions/0113). */
export const startBody = z.object({
  title: z.string().max(1000),
  description: z
    .string()
    .max(MAX_LIVE_DESCRIPTION * 2)
    .nullish(),
  is_public: zFlag.optional(),
  max_guests: z
    .union([
      z.number().int(),
      z
        .string()
        .regex(/^\d{1,3}$/)
        .transform(Number),
    ])
    .optional(),
});
export const guestQuery = z.object({ id: zId, status: z.enum(GUEST_STATUSES).optional(), ...paginationQuery });
export const guestRequestBody = z.object({
  message: z
    .string()
    .max(MAX_GUEST_MESSAGE * 2)
    .nullish(),
});
export const liveCommentBody = z.object({ content: z.string().max(MAX_LIVE_COMMENT * 2) });
export const liveReportBody = z.object({
  reason: z.enum(LIVE_REPORT_REASONS),
  description: z
    .string()
    .max(MAX_REPORT_DESCRIPTION * 2)
    .nullish(),
});
export const backgroundBody = z.object({ background_image: z.string().max(1024).nullable() });

export function livesScript(s: LivesServices, p: PresenterContext): Script {
  const endLive = async (actor: Parameters<LiveService['end']>[0], id: number) => {
    const live = await s.lives.end(actor, id);
    return { message: 'Live ended', live_id: live.id, status: live.status };
  };
  const ended = z.object({ message: z.string(), live_id: zWireId, status: z.enum(['active', 'ended']) });

  const operations: AnyOperation[] = [
    op({
      method: 'GET',
      auth: 'required',
      query: z.object(paginationQuery),
      summary: 'Active lives (public ones and my own), newest first',
      response: z.object({ lives: z.array(LiveItem), meta: PageMetaWire }),
      handle: async (ctx) => {
        const r = await s.lives.list(ctx.actor, pageRequest(ctx.query.page, ctx.query.per_page));
        return { lives: r.items.map((v) => presentLive(v, ctx.actor.userId, p)), meta: r.meta };
      },
    }),
    op({
      method: 'POST',
      auth: 'required',
      body: startBody,
      summary: 'Start a live (my earlier active lives end); answers live_id',
      response: z.object({ live_id: zWireId, live: LiveItem }),
      handle: async (ctx) => {
        const live = await s.lives.start(ctx.actor, ctx.body);
        return { live_id: live.id, live: presentLive({ live, creator: null, current_viewers: 0 }, ctx.actor.userId, p) };
      },
    }),
    op({
      method: 'GET',
      select: { path: ':id' },
      auth: 'required',
      query: idParam,
      summary: 'Live details (with background_image)',
      response: z.object({ live: LiveItem }),
      handle: async (ctx) => ({ live: presentLive(await s.lives.details(ctx.actor, ctx.query.id), ctx.actor.userId, p) }),
    }),
    op({
      method: 'POST',
      select: { path: ':id/end' },
      auth: 'required',
      query: idParam,
      body: z.object({ action: z.literal('end').optional() }),
      summary: 'End the live (body {action: "end"}); its creator or a moderator',
      response: ended,
      handle: async (ctx) => endLive(ctx.actor, ctx.query.id),
    }),
    op({
      method: 'PUT',
      select: { path: ':id/end' },
      auth: 'required',
      query: idParam,
      summary: 'End the live. Deprecated (answers a Deprecation header): use POST with {action: "end"}',
      response: ended,
      handle: async (ctx) => {
        ctx.koa.set('Deprecation', 'true');
        ctx.koa.set('Link', `<?path=${ctx.query.id}/end>; rel="successor-version"`);
        return endLive(ctx.actor, ctx.query.id);
      },
    }),
    op({
      method: 'POST',
      select: { path: ':id/join' },
      auth: 'required',
      query: idParam,
      body: z.object({}),
      summary: 'Viewer presence ping (every 60 s while watching); answers current_viewers',
      response: z.object({ live_id: zWireId, current_viewers: zCount }),
      handle: async (ctx) => ({ live_id: ctx.query.id, current_viewers: await s.lives.join(ctx.actor, ctx.query.id) }),
    }),
    op({
      method: 'GET',
      select: { path: ':id/guests' },
      auth: 'required',
      query: guestQuery,
      summary: 'Guest requests of the live (status=pending for the waiting ones)',
      response: z.object({ guests: z.array(GuestItem), meta: PageMetaWire }),
      handle: async (ctx) => {
        const r = await s.stage.list(ctx.actor, ctx.query.id, ctx.query.status ?? null, pageRequest(ctx.query.page, ctx.query.per_page));
        return { guests: r.items.map((g) => presentGuest(g, p)), meta: r.meta };
      },
    }),
    op({
      method: 'POST',
      select: { path: ':id/request-guest' },
      auth: 'required',
      query: idParam,
      body: guestRequestBody,
      summary: 'Ask to go on stage; status "accepted" means publish now, else wait',
      response: z.object({ status: z.enum(['accepted', 'pending', 'rejected']), guest: GuestItem }),
      handle: async (ctx) => {
        const g = await s.stage.request(ctx.actor, ctx.query.id, ctx.body.message);
        return { status: guestRequestStatus(g), guest: presentGuest({ guest: g, user: null }, p) };
      },
    }),
    ...(['approve', 'reject'] as const).map((verb) =>
      op({
        method: 'PUT',
        select: { path: `:id/guests/:user_id/${verb}` },
        auth: 'required',
        query: guestParam,
        body: z.object({}),
        summary:
          verb === 'approve' ? 'Approve a guest request (host or live moderators)' : 'Reject a guest request or take a guest off the stage',
        response: z.object({ message: z.string(), guest: GuestItem }),
        handle: async (ctx) => {
          const g =
            verb === 'approve'
              ? await s.stage.approve(ctx.actor, ctx.query.id, ctx.query.user_id)
              : await s.stage.reject(ctx.actor, ctx.query.id, ctx.query.user_id);
          return { message: verb === 'approve' ? 'Guest approved' : 'Guest rejected', guest: presentGuest({ guest: g, user: null }, p) };
        },
      }),
    ),
    op({
      method: 'GET',
      select: { path: ':id/comments' },
      auth: 'required',
      query: z.object({ id: zId, ...paginationQuery }),
      summary: 'Live comments: page 1 holds the newest, oldest first within the page',
      response: z.object({ comments: z.array(LiveCommentItem), meta: PageMetaWire }),
      handle: async (ctx) => {
        const r = await s.chat.list(ctx.actor, ctx.query.id, pageRequest(ctx.query.page, ctx.query.per_page));
        return { comments: r.items.map((c) => presentLiveComment(c, p)), meta: r.meta };
      },
    }),
    op({
      method: 'POST',
      select: { path: ':id/comments' },
      auth: 'required',
      rateLimit: 'comments',
      query: idParam,
      body: liveCommentBody,
      summary: 'Comment on a live; answers comment_id',
      response: z.object({ comment_id: zWireId, comment: LiveCommentItem }),
      handle: async (ctx) => {
        const c = await s.chat.post(ctx.actor, ctx.query.id, ctx.body.content);
        return { comment_id: c.id, comment: presentLiveComment({ comment: c, author: null }, p) };
      },
    }),
    op({
      method: 'DELETE',
      select: { path: ':id/comments/:comment_id' },
      auth: 'required',
      query: z.object({ id: zId, comment_id: zId }),
      summary: 'Delete a live comment (its author, or the live’s creator and moderators)',
      response: z.object({ message: z.string(), comment_id: zWireId }),
      handle: async (ctx) => {
        await s.chat.delete(ctx.actor, ctx.query.id, ctx.query.comment_id);
        return { message: 'Comment deleted', comment_id: ctx.query.comment_id };
      },
    }),
    op({
      method: 'PUT',
      select: { path: ':id/moderators/:user_id' },
      auth: 'required',
      query: userParam,
      body: z.object({}),
      summary: 'Appoint a moderator of the live (its creator)',
      response: z.object({ message: z.string(), moderator_user_ids: z.array(zWireId) }),
      handle: async (ctx) => ({
        message: 'Moderator added',
        moderator_user_ids: await s.moderation.appointModerator(ctx.actor, ctx.query.id, ctx.query.user_id),
      }),
    }),
    op({
      method: 'PUT',
      select: { path: ':id/chat-blocks/:user_id' },
      auth: 'required',
      query: userParam,
      body: z.object({}),
      summary: 'Block a user from the live’s chat (its creator and moderators)',
      response: z.object({ message: z.string(), blocked_user_ids: z.array(zWireId) }),
      handle: async (ctx) => ({
        message: 'User blocked from the chat',
        blocked_user_ids: await s.moderation.blockFromChat(ctx.actor, ctx.query.id, ctx.query.user_id),
      }),
    }),
    op({
      method: 'GET',
      select: { path: ':id/moderation' },
      auth: 'required',
      query: idParam,
      summary: 'Moderation state of the live: moderators, chat blocks, mine',
      response: ModerationStatePayload,
      handle: async (ctx) => s.moderation.state(ctx.actor, ctx.query.id),
    }),
    op({
      method: 'POST',
      select: { path: ':id/report' },
      auth: 'required',
      query: idParam,
      body: liveReportBody,
      summary: 'Report the live (once per user); suspended past the configured number of reporters',
      response: z.object({
        live_id: zWireId,
        title: z.string(),
        report_count: zCount,
        is_suspended: z.boolean(),
        already_reported: z.boolean(),
      }),
      handle: async (ctx) => {
        const r = await s.moderation.report(ctx.actor, ctx.query.id, ctx.body);
        return {
          live_id: r.live.id,
          title: r.live.title,
          report_count: r.report_count,
          is_suspended: r.is_suspended,
          already_reported: r.already_reported,
        };
      },
    }),
    op({
      method: 'GET',
      select: { path: 'moderation/reports' },
      auth: 'required',
      query: z.object(paginationQuery),
      summary: 'Reports of lives, newest first (moderators)',
      response: z.object({ reports: z.array(LiveReportEntry), meta: PageMetaWire }),
      handle: async (ctx) => {
        const r = await s.moderation.queue(ctx.actor, pageRequest(ctx.query.page, ctx.query.per_page));
        return { reports: r.items.map((i) => presentLiveReport(i, p)), meta: r.meta };
      },
    }),
    op({
      method: 'PUT',
      select: { path: ':id/background' },
      auth: 'required',
      query: idParam,
      body: backgroundBody,
      summary: 'Set the live’s background image (an uploaded file), or remove it with null',
      response: z.object({ background_image: z.string().nullable() }),
      handle: async (ctx) => ({ background_image: await s.lives.setBackground(ctx.actor, ctx.query.id, ctx.body.background_image) }),
    }),
    op({
      method: 'POST',
      select: { path: 'token' },
      auth: 'required',
      body: z.object({
        roomName: z
          .string()
          .max(128)
          .regex(/^(live-\d+|group-call-\d+|test-[A-Za-z0-9_-]+)$/, 'must be live-<id>, group-call-<id> or test-<name>')
          .nullish(),
        identity: z
          .string()
          .max(128)
          .regex(/^u\d+(-[^\s]*)?$/, 'must be u<your user id>-…')
          .nullish(),
        name: z.string().max(256).nullish(),
        canPublish: zFlag.optional(),
        canPublishData: zFlag.optional(),
        canSubscribe: zFlag.optional(),
        liveId: zId.nullish(),
      }),
      summary: 'A media-server (LiveKit) access token for roomName as identity; publishing only where allowed',
      response: z.object({
        token: z.string().min(1),
        url: z.string(),
        expires_in: z.number().int().positive(),
        room: z.string(),
        grants: z.object({ canPublish: z.boolean(), canPublishData: z.boolean(), canSubscribe: z.boolean() }),
      }),
      handle: async (ctx) => s.tokens.issue(ctx.actor, ctx.body),
    }),
    op({
      method: 'POST',
      select: { path: 'webhook' },
      auth: 'none',
      // Machine traffic from the media server's address: one event per viewer joining or leaving.
      rateLimit: 'reads',
      summary: 'Media-server webhook (LiveKit): signed events that end closed rooms and count viewers',
      response: z.object({ event: z.string(), handled: z.boolean() }),
      handle: async (ctx) => {
        const raw = await readRawBody(ctx.koa.req, WEBHOOK_BODY_LIMIT);
        const auth = ctx.request.headers.authorization;
        return s.events.receive(raw, Array.isArray(auth) ? auth[0] : auth);
      },
    }),
  ];
  return { name: 'lives', operations };
}
