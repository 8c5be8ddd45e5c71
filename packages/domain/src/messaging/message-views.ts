import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import { userMap } from '../accounts/user-map.js';
import type { ReactionSummaries } from './ports.js';

/** What both message kinds (private and messaging-group) carry into a view. */
interface MessageLike {
  id: number;
  sender_id: number;
  parent_id: number | null;
}

/** A message as the lists present it: its sender, the message it answers, and the reactions on it. */
export interface MessageViewOf<M extends MessageLike> {
  message: M;
  sender: UserRecord | null;
  parent: M | null;
  parent_sender: UserRecord | null;
  reactions: Record<string, number>;
  user_reaction: string | null;
}

/** Where a message kind's views read from: its parents by id and its reactions as the viewer sees them. */
export interface MessageViewSources<M extends MessageLike> {
  users: UserRepository;
  findMessages(ids: number[]): Promise<M[]>;
  reactions(messageIds: number[], viewerId: number): Promise<ReactionSummaries>;
  /** Accounts the caller has already read (a thread's two sides): senders among them are not read again. */
  knownUsers?: readonly (UserRecord | null)[];
}

/**
 * The views of a page of messages of either kind, in three reads at most whatever the page's length:
 * the parents, the senders (of the messages and of their parents) not already known, the reactions.
 */
export async function messageViews<M extends MessageLike>(
  sources: MessageViewSources<M>,
  viewerId: number,
  items: M[],
): Promise<MessageViewOf<M>[]> {
  if (items.length === 0) return [];
  const parentIds = [...new Set(items.flatMap((m) => (m.parent_id ? [m.parent_id] : [])))];
  const parents = new Map((parentIds.length ? await sources.findMessages(parentIds) : []).map((m) => [m.id, m]));
  const users = await userMap(
    sources.users,
    [...items.map((m) => m.sender_id), ...[...parents.values()].map((m) => m.sender_id)],
    sources.knownUsers,
  );
  const reactions = await sources.reactions(
    items.map((m) => m.id),
    viewerId,
  );
  return items.map((m) => {
    const parent = m.parent_id ? (parents.get(m.parent_id) ?? null) : null;
    return {
      message: m,
      sender: users.get(m.sender_id) ?? null,
      parent,
      parent_sender: parent ? (users.get(parent.sender_id) ?? null) : null,
      reactions: reactions.counts.get(m.id) ?? {},
      user_reaction: reactions.mine.get(m.id) ?? null,
    };
  });
}
