import { Invalid } from '@plaza/domain';
import { problemsMessage, validationProblems, zId, zPage, zPerPage } from '@plaza/adapters-http';
import { credentials, emailBody, registration, resetBody, tokenInBody } from '@plaza/adapters-http/scripts/auth';
import {
  answerBody,
  IceCandidateInput,
  iceCandidateBody,
  iceRestartBody,
  initiateBody,
  joinBody,
  peerOfferBody,
  pollQuery,
  talkInviteBody,
} from '@plaza/adapters-http/scripts/calls';
import { changePasswordBody } from '@plaza/adapters-http/scripts/change-password';
import { commentReactBody, commentType } from '@plaza/adapters-http/scripts/comment-reactions';
import { editCommentBody, newCommentBody } from '@plaza/adapters-http/scripts/comments';
import { confirmQuery } from '@plaza/adapters-http/scripts/delete-account';
import {
  listQuery as suggestionListQuery,
  statusBody,
  suggestionBody,
  suggestionCommentBody,
  suggestionVoteBody,
} from '@plaza/adapters-http/scripts/feature-suggestions';
import { listQuery as followListQuery } from '@plaza/adapters-http/scripts/follows';
import {
  backgroundBody,
  guestQuery,
  guestRequestBody,
  liveCommentBody,
  liveReportBody,
  startBody,
} from '@plaza/adapters-http/scripts/lives';
import {
  editGroupMessageBody,
  groupListQuery,
  groupMessageBody,
  groupReactionBody,
  groupTypingBody,
  groupUpdateBody,
  newGroupBody,
} from '@plaza/adapters-http/scripts/message-groups';
import { autoDeleteBody, editMessageBody, messageBody, reactionBody, search, typingBody } from '@plaza/adapters-http/scripts/messages';
import { applyBody, voteBody } from '@plaza/adapters-http/scripts/moderators';
import { listQuery as inboxQuery, markBody, testBody } from '@plaza/adapters-http/scripts/notifications';
import { createBody, editBody, feedQuery } from '@plaza/adapters-http/scripts/posts';
import { reactBody } from '@plaza/adapters-http/scripts/reactions';
import { cancelBody, listQuery as reportListQuery, postBody as reportBody } from '@plaza/adapters-http/scripts/reports';
import { storyBody } from '@plaza/adapters-http/scripts/stories';
import { enableBody, proofBody } from '@plaza/adapters-http/scripts/two-factor';
import { canonical, patch as preferencesPatch } from '@plaza/adapters-http/scripts/user-preferences';
import { profilePatch } from '@plaza/adapters-http/scripts/users';
import { COMMENT_MAX_LENGTH } from '@plaza/domain/content';
import type { Plaza } from './library.js';
import { z } from 'zod';

/**
 * The library's use cases check plain JavaScript input with the schemas of their HTTP operations and
 * answer what HTTP answers, `Invalid` (invalid_input) with one detail per field, instead of failing
 * inside the service (`content: 42` was a TypeError). docs/decisions/0113 says why here and not yet
 * beside the use cases.
 */

/** The acting user as `actorOf` makes it; its other keys (the session's card) pass through. */
const actor = z.looseObject({
  userId: z.number().int().positive(),
  username: z.string(),
  isAdmin: z.boolean(),
  isModerator: z.boolean(),
  isTechnician: z.boolean(),
});

/** One argument of a use case: its name (the field of a scalar's problem) and its schema. */
interface Argument {
  name: string;
  schema: z.ZodType;
  /** Hand the service the parsed value (schemas that coerce or default), else the caller's own. */
  parsed?: boolean;
  /** Prefixes its fields' names in the details (`actor.userId`); a body's fields are named as HTTP names them. */
  prefix?: string;
}

const ACTOR: Argument = { name: 'actor', schema: actor, prefix: 'actor' };
/** A use case's arguments, in order; `streams` marks one that answers an async iterable instead of a promise. */
type Rule = readonly Argument[] & { readonly streams?: true };
/** A use case that answers an async iterable (the export's files): a refusal is its first step's rejection. */
const streams = (args: Argument[]): Rule => Object.assign(args, { streams: true as const });
const arg = (name: string, schema: z.ZodType): Argument => ({ name, schema, parsed: true });

/** `auth.login` takes the login form's fields under the service's name `login` (HTTP: `username`). */
const login = credentials.omit({ username: true }).extend({ login: credentials.shape.username });
const proof = proofBody.extend({ session: z.string().max(512).nullish() });
const id = (name: string) => arg(name, zId);
/** `page` and `per_page` of the paged reads, as their query declares them. */
const page = [arg('page', zPage), arg('perPage', zPerPage)];

/** A paged read's `{ page, perPage }`, with the bounds of `page` and `per_page` as the queries declare them. */
const pageRequest = arg('page', z.object({ page: zPage.unwrap(), perPage: zPerPage.unwrap() }));
/** An optional trailing page: the services' own default applies when it is left out. */
const optionalPage = arg('page', pageRequest.schema.optional());
const token = arg('token', tokenInBody.shape.token.unwrap().min(1, 'is required'));
const liveGuest = [ACTOR, id('liveId'), id('userId')];
/**
 * Use cases no HTTP operation calls directly (the server's own steps, public on their service):
 * checked for the shape the service reads, since there is no operation's schema to share.
 */
const accountRecord = z.looseObject({ id: z.number().int().positive(), username: z.string() });
const tokenAuthentication = z
  .object({ at: z.string().min(1), factors: z.enum(['password', 'second_factor']) })
  .nullable()
  .optional();
const newNotification = z.looseObject({
  user_id: z.number().int().positive(),
  from_user_id: z.number().int().positive().nullable(),
  type: z.string().min(1),
});
const warning = z.object({ userId: zId, issuedBy: zId, reportId: zId.nullable(), reason: z.string().max(1000) });

/** The methods of a service: everything callable on it. */
type MethodsOf<S> = { [K in keyof S]-?: S[K] extends (...args: never[]) => unknown ? K : never }[keyof S];
/** The rules of one service: one for each of its methods, or it does not compile (a new method needs its rule). */
export type InputRules<S> = { readonly [K in MethodsOf<S>]-?: Rule };
/** The use case groups of `Plaza`, service by service. */
type Services = Omit<Plaza, 'config' | 'get' | 'close'>;
type LibraryInputRules = { readonly [G in keyof Services]: { readonly [N in keyof Services[G]]: InputRules<Services[G][N]> } };

/**
 * Every use case `createPlaza` exposes, by group and service as `Plaza` names them, argument by
 * argument: `[ACTOR]` for one that takes only the acting user, `[]` for one that takes nothing.
 */
export const LIBRARY_INPUT_RULES = {
  accounts: {
    auth: {
      register: [arg('input', registration)],
      prepareRegistration: [arg('input', registration)],
      login: [arg('input', login)],
      authenticate: [token],
      session: [token],
      refresh: [token],
      revoke: [token],
      forgotPassword: [arg('email', emailBody.shape.email)],
      resetPassword: [arg('input', resetBody)],
      issue: [arg('user', accountRecord), arg('authentication', tokenAuthentication)],
    },
    profiles: { update: [ACTOR, arg('patch', profilePatch), arg('proof', proof.optional())], view: [ACTOR, arg('userId', zId.optional())] },
    twoFactor: {
      status: [ACTOR],
      enable: [ACTOR, arg('code', enableBody.shape.code)],
      disable: [ACTOR, arg('proof', proof)],
      regenerateRecoveryCodes: [ACTOR, arg('proof', proof)],
    },
    passwords: { change: [ACTOR, arg('input', changePasswordBody), arg('presentedToken', z.string().min(1).max(512))] },
    preferences: { view: [ACTOR], update: [ACTOR, arg('patch', preferencesPatch.transform(canonical))] },
    deletion: {
      request: [ACTOR, arg('password', z.string().min(1, 'is required').max(200))],
      confirm: [arg('secret', confirmQuery.shape.token)],
    },
    export: { account: [ACTOR], json: [ACTOR], media: streams([ACTOR]), posts: streams([ACTOR]) },
  },
  social: {
    follows: {
      follow: [ACTOR, id('userId')],
      unfollow: [ACTOR, id('userId')],
      list: [ACTOR, arg('userId', followListQuery.shape.user_id), arg('type', followListQuery.shape.type.removeDefault()), pageRequest],
    },
    friends: {
      send: [ACTOR, id('userId')],
      accept: [ACTOR, id('requestId')],
      reject: [ACTOR, id('requestId')],
      remove: [ACTOR, id('userId')],
      friends: [ACTOR, pageRequest],
      pending: [ACTOR, pageRequest],
    },
  },
  content: {
    posts: {
      feed: [ACTOR, arg('kind', feedQuery.shape.feed_type.unwrap().exclude([''])), ...page],
      wall: [ACTOR, id('userId'), ...page],
      bookmarks: [ACTOR, ...page],
      view: [ACTOR, id('postId')],
      visiblePost: [ACTOR, id('postId')],
      create: [ACTOR, arg('input', createBody)],
      edit: [ACTOR, id('postId'), arg('input', editBody)],
      delete: [ACTOR, id('postId')],
    },
    engagement: {
      react: [ACTOR, id('postId'), arg('type', reactBody.shape.reaction_type)],
      unreact: [ACTOR, id('postId')],
      reactions: [ACTOR, id('postId')],
      share: [ACTOR, id('postId')],
      bookmark: [ACTOR, id('postId')],
      unbookmark: [ACTOR, id('postId')],
    },
    comments: {
      list: [ACTOR, id('postId'), ...page],
      create: [ACTOR, arg('input', newCommentBody(COMMENT_MAX_LENGTH))],
      edit: [ACTOR, id('commentId'), arg('content', editCommentBody.shape.content)],
      delete: [ACTOR, id('commentId')],
      react: [ACTOR, arg('type', commentType), id('commentId'), arg('reaction', commentReactBody.shape.reaction_type)],
      unreact: [ACTOR, arg('type', commentType), id('commentId')],
      reactions: [ACTOR, arg('type', commentType), id('commentId')],
    },
    stories: {
      active: [ACTOR],
      ofUser: [ACTOR, id('userId')],
      create: [ACTOR, arg('input', storyBody)],
      delete: [ACTOR, id('storyId')],
      purgeExpired: [],
    },
  },
  messaging: {
    privateMessages: {
      send: [ACTOR, id('recipientId'), arg('input', z.object(messageBody))],
      thread: [ACTOR, id('peerId'), pageRequest, arg('q', search)],
      conversations: [ACTOR, pageRequest, arg('q', search)],
      edit: [ACTOR, id('messageId'), arg('content', editMessageBody.shape.content)],
      delete: [ACTOR, id('messageId')],
      deleteConversation: [ACTOR, id('peerId')],
      react: [ACTOR, id('messageId'), arg('reaction', reactionBody.shape.reaction.unwrap())],
      unreact: [ACTOR, id('messageId')],
      settings: [ACTOR, id('peerId')],
      setAutoDelete: [ACTOR, id('peerId'), arg('minutes', autoDeleteBody.shape.auto_delete_time)],
      deleteExpired: [],
    },
    groups: {
      list: [ACTOR, pageRequest, arg('q', groupListQuery.shape.q)],
      create: [ACTOR, arg('input', newGroupBody)],
      details: [ACTOR, id('groupId')],
      update: [ACTOR, id('groupId'), arg('patch', groupUpdateBody)],
      leave: [ACTOR, id('groupId')],
      addMember: [ACTOR, id('groupId'), id('userId')],
      removeMember: [ACTOR, id('groupId'), id('userId')],
      approve: [ACTOR, id('groupId'), id('requestId')],
      reject: [ACTOR, id('groupId'), id('requestId')],
      messages: [ACTOR, id('groupId'), pageRequest],
      send: [ACTOR, id('groupId'), arg('input', groupMessageBody)],
      editMessage: [ACTOR, id('messageId'), arg('content', editGroupMessageBody.shape.content)],
      deleteMessage: [ACTOR, id('messageId')],
      react: [ACTOR, id('messageId'), arg('reaction', groupReactionBody.shape.reaction.unwrap())],
      unreact: [ACTOR, id('messageId')],
      deleteExpired: [],
      assertMember: [ACTOR, id('groupId')],
    },
    typing: {
      setPrivate: [ACTOR, id('recipientId'), arg('isTyping', typingBody.shape.is_typing.removeDefault())],
      privateTypists: [ACTOR, id('peerId')],
      setGroup: [ACTOR, id('groupId'), arg('isTyping', groupTypingBody.shape.is_typing.removeDefault())],
      groupTypists: [ACTOR, id('groupId')],
      purge: [],
    },
  },
  notifications: {
    notifications: {
      raise: [
        { ...arg('input', newNotification), parsed: false },
        arg('push', z.looseObject({ title: z.string(), body: z.string() }).optional()),
      ],
    },
    inbox: {
      list: [
        ACTOR,
        arg('options', z.object({ page: inboxQuery.shape.page, perPage: inboxQuery.shape.per_page, unreadOnly: inboxQuery.shape.unread })),
      ],
      countUnread: [ACTOR],
      markRead: [ACTOR, arg('id', markBody.shape.id.unwrap())],
      markAllRead: [ACTOR],
      test: [ACTOR, arg('provider', testBody.shape.provider)],
    },
  },
  calls: {
    calls: {
      initiate: [ACTOR, arg('input', initiateBody)],
      answer: [ACTOR, id('callId'), arg('answer', answerBody.shape.answer.nullable())],
      join: [ACTOR, id('callId'), arg('offer', joinBody.shape.offer)],
      peerSignal: [
        ACTOR,
        id('callId'),
        arg(
          'input',
          z.object({
            to_user_id: peerOfferBody.shape.to_user_id,
            kind: z.enum(['offer', 'answer']),
            sdp: peerOfferBody.shape.offer.nullable(),
          }),
        ),
      ],
      iceCandidate: [
        ACTOR,
        id('callId'),
        arg('input', z.object({ candidate: IceCandidateInput.options[1], to_user_id: iceCandidateBody.shape.to_user_id })),
      ],
      iceRestart: [
        ACTOR,
        id('callId'),
        arg('input', z.object({ offer: iceRestartBody.shape.offer.nullable(), to_user_id: iceRestartBody.shape.to_user_id })),
      ],
      reject: [ACTOR, id('callId')],
      leave: [ACTOR, id('callId')],
      end: [ACTOR, id('callId')],
      poll: [ACTOR, id('callId'), arg('lastPoll', pollQuery.shape.last_poll.nullable())],
      history: [ACTOR, pageRequest],
      missOverdue: [],
    },
    talk: { invite: [ACTOR, arg('input', talkInviteBody)] },
  },
  lives: {
    lives: {
      start: [ACTOR, arg('input', startBody)],
      list: [ACTOR, pageRequest],
      details: [ACTOR, id('liveId')],
      end: [ACTOR, id('liveId')],
      join: [ACTOR, id('liveId')],
      setBackground: [ACTOR, id('liveId'), arg('background', backgroundBody.shape.background_image)],
      find: [id('liveId')],
    },
    stage: {
      request: [ACTOR, id('liveId'), arg('message', guestRequestBody.shape.message)],
      approve: liveGuest,
      reject: liveGuest,
      list: [ACTOR, id('liveId'), arg('status', guestQuery.shape.status.unwrap().nullable()), pageRequest],
    },
    chat: {
      list: [ACTOR, id('liveId'), pageRequest],
      post: [ACTOR, id('liveId'), arg('content', liveCommentBody.shape.content)],
      delete: [ACTOR, id('liveId'), id('commentId')],
    },
    moderation: {
      appointModerator: liveGuest,
      blockFromChat: liveGuest,
      state: [ACTOR, id('liveId')],
      report: [ACTOR, id('liveId'), arg('input', liveReportBody)],
      queue: [ACTOR, pageRequest],
    },
  },
  moderation: {
    reports: {
      create: [ACTOR, arg('input', reportBody.pick({ post_id: true, post_type: true, user_id: true, reason: true, description: true }))],
      list: [ACTOR, arg('status', reportListQuery.shape.status.unwrap().exclude([''])), pageRequest],
      queue: [ACTOR, arg('status', reportListQuery.shape.status.unwrap().exclude([''])), pageRequest],
      aboutUser: [ACTOR, id('userId'), pageRequest],
      vote: [ACTOR, id('reportId'), arg('vote', reportBody.shape.vote.unwrap())],
      act: [ACTOR, id('reportId'), arg('action', reportBody.shape.moderator_action.unwrap()), arg('reason', reportBody.shape.reason)],
      cancel: [ACTOR, { ...arg('which', cancelBody), parsed: false }],
    },
    elections: {
      apply: [ACTOR, arg('motivation', applyBody.shape.motivation)],
      withdraw: [ACTOR],
      vote: [ACTOR, id('candidateId'), arg('vote', voteBody.shape.vote)],
      candidates: [ACTOR, pageRequest],
      moderators: [ACTOR, pageRequest],
      actions: [ACTOR, pageRequest],
    },
    sanctions: {
      admit: [ACTOR],
      assertNotBanned: [ACTOR],
      mine: [ACTOR, optionalPage],
      all: [ACTOR, pageRequest],
      issueWarning: [arg('input', warning)],
    },
    suggestions: {
      list: [ACTOR, arg('filter', suggestionListQuery.shape.filter.unwrap().exclude(['']).nullable()), pageRequest],
      detail: [ACTOR, id('id'), pageRequest],
      stats: [],
      create: [ACTOR, arg('input', suggestionBody)],
      vote: [ACTOR, id('id'), arg('vote', suggestionVoteBody.shape.vote)],
      comment: [ACTOR, id('id'), arg('content', suggestionCommentBody.shape.content)],
      updateStatus: [ACTOR, id('id'), arg('input', statusBody.omit({ suggestion_id: true }))],
      delete: [ACTOR, id('id')],
    },
  },
} satisfies LibraryInputRules;

/**
 * The service with each method checking its arguments first; a refusal is the `Invalid` HTTP would
 * answer, and the service is not called. `rules` names every method of the service (`InputRules`).
 */
export function checkedInput<S extends object>(service: S, rules: InputRules<S>): S {
  return new Proxy(service, {
    get(target, property, receiver) {
      const original = Reflect.get(target, property, receiver);
      // The rules name every method the type knows; anything else (the constructor) is the service's own.
      const argumentsOf = (rules as Record<PropertyKey, Rule | undefined>)[property];
      if (!argumentsOf || typeof original !== 'function') return original;
      return (...args: unknown[]) => {
        let checked: unknown[];
        try {
          // A missing argument is checked too: undefined fails a required one's schema.
          checked = Array.from({ length: Math.max(args.length, argumentsOf.length) }, (_, i) => checkArgument(argumentsOf[i], args[i]));
        } catch (error) {
          // A refusal arrives as the service's own would: a rejection, or the stream's first step failing.
          if (argumentsOf.streams)
            return (async function* refused() {
              throw error;
            })();
          return Promise.reject(error);
        }
        return original.apply(target, checked);
      };
    },
  });
}

function checkArgument(argument: Argument | undefined, value: unknown): unknown {
  if (!argument) return value;
  const result = argument.schema.safeParse(value);
  if (!result.success) {
    // A scalar's problem has no path of its own: it is the argument's.
    const details = validationProblems(result.error, {
      schema: argument.schema,
      input: value,
      prefix: argument.prefix,
      root: argument.name,
    });
    throw new Invalid(problemsMessage(details), 'invalid_input', details);
  }
  return argument.parsed ? result.data : value;
}
