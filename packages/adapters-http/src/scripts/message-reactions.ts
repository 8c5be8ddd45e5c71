import type { Actor } from '@plaza/domain';
import { MESSAGE_REACTIONS, type MessageReaction } from '@plaza/domain/messaging';
import { z } from 'zod';
import { type AnyOperation, type Infer, op, type Selector } from '../http/operation.js';
import { ReactionsSummary, reactionCounts } from '../presenters/messaging.js';
import { zWireId } from '../presenters/wire.js';

/**
 * Reacting to a message, private (messages.php?action=react) or in a messaging group
 * (message_groups.php?path=messages/:id/reactions): the same choice of reaction and the same answer.
 */

/**
 * A body naming a reaction as `reaction_type` or, as older clients do, `reaction`; one of the two is
 * required. `fields` come first: what else the body names (messages.php: the message).
 */
export function messageReactionBody<F extends z.ZodRawShape>(fields: F) {
  return (
    z
      .object({ ...fields, reaction_type: z.enum(MESSAGE_REACTIONS).optional(), reaction: z.enum(MESSAGE_REACTIONS).optional() })
      // The output's type is generic in `fields` here; the two keys this checks are there whatever they are.
      .refine((b) => namesReaction(b as ReactionChoice), {
        message: 'reaction_type is required',
        path: ['reaction_type'],
      })
  );
}

interface ReactionChoice {
  reaction_type?: MessageReaction;
  reaction?: MessageReaction;
}

function namesReaction(b: ReactionChoice): boolean {
  return b.reaction_type !== undefined || b.reaction !== undefined;
}

/** The reaction a `messageReactionBody` names (its refinement guarantees one). */
function chosenReaction(body: ReactionChoice): MessageReaction {
  return (body.reaction_type ?? body.reaction)!;
}

/** The answer to a reaction change: the message's counts and my reaction now. */
const MessageReactionChange = z.object({
  message_id: zWireId,
  reactions_summary: ReactionsSummary,
  user_reaction: z.enum(MESSAGE_REACTIONS).nullable(),
});

function presentMessageReactionChange(
  messageId: number,
  counts: Record<string, number>,
  userReaction: MessageReaction | null,
): z.input<typeof MessageReactionChange> {
  return { message_id: messageId, reactions_summary: reactionCounts(counts), user_reaction: userReaction };
}

/** A message's reactions by type, after a change (the services answer them so). */
type ReactionCounts = Record<string, number>;

/** POST: add or replace my reaction on the message the request names. */
export function reactToMessageOperation<
  QS extends z.ZodObject | undefined,
  BS extends z.ZodType<ReactionChoice & Record<string, unknown>>,
>(o: {
  select: Selector;
  query?: QS;
  body: BS;
  summary: string;
  messageId: (query: Infer<QS>, body: Infer<BS>) => number;
  react: (actor: Actor, messageId: number, reaction: MessageReaction) => Promise<ReactionCounts>;
}): AnyOperation {
  return op<QS, BS>({
    method: 'POST',
    select: o.select,
    auth: 'required',
    rateLimit: 'messages',
    query: o.query,
    body: o.body,
    summary: o.summary,
    response: MessageReactionChange,
    handle: async (ctx) => {
      const messageId = o.messageId(ctx.query, ctx.body);
      const reaction = chosenReaction(ctx.body);
      return presentMessageReactionChange(messageId, await o.react(ctx.actor, messageId, reaction), reaction);
    },
  });
}

/** DELETE: take my reaction back from the message the query names. */
export function unreactFromMessageOperation<QS extends z.ZodObject>(o: {
  select: Selector;
  query: QS;
  summary: string;
  messageId: (query: Infer<QS>) => number;
  unreact: (actor: Actor, messageId: number) => Promise<ReactionCounts>;
}): AnyOperation {
  return op<QS>({
    method: 'DELETE',
    select: o.select,
    auth: 'required',
    rateLimit: 'messages',
    query: o.query,
    summary: o.summary,
    response: MessageReactionChange,
    handle: async (ctx) => {
      const messageId = o.messageId(ctx.query);
      return presentMessageReactionChange(messageId, await o.unreact(ctx.actor, messageId), null);
    },
  });
}
