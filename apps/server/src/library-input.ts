import { Invalid } from '@plaza/domain';
import { validationProblems, zId, zPage, zPerPage } from '@plaza/adapters-http';
import { credentials, registration } from '@plaza/adapters-http/scripts/auth';
import { changePasswordBody } from '@plaza/adapters-http/scripts/change-password';
import { newCommentBody } from '@plaza/adapters-http/scripts/comments';
import { messageBody } from '@plaza/adapters-http/scripts/messages';
import { createBody } from '@plaza/adapters-http/scripts/posts';
import { enableBody, proofBody } from '@plaza/adapters-http/scripts/two-factor';
import { profilePatch } from '@plaza/adapters-http/scripts/users';
import { COMMENT_MAX_LENGTH } from '@plaza/domain/content';
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
const arg = (name: string, schema: z.ZodType): Argument => ({ name, schema, parsed: true });

/** `auth.login` takes the login form's fields under the service's name `login` (HTTP: `username`). */
const login = credentials.omit({ username: true }).extend({ login: credentials.shape.username });
const proof = proofBody.extend({ session: z.string().max(512).nullish() });
const id = (name: string) => arg(name, zId);
/** `page` and `per_page` of the paged reads, as their query declares them. */
const page = [arg('page', zPage), arg('perPage', zPerPage)];

/** The checked use cases, by group and service as `Plaza` exposes them, argument by argument. */
export const LIBRARY_INPUT_RULES = {
  auth: { register: [arg('input', registration)], login: [arg('input', login)] },
  profiles: { update: [ACTOR, arg('patch', profilePatch), arg('proof', proof.optional())], view: [ACTOR, arg('userId', zId.optional())] },
  twoFactor: {
    status: [ACTOR],
    enable: [ACTOR, arg('code', enableBody.shape.code)],
    disable: [ACTOR, arg('proof', proof)],
    regenerateRecoveryCodes: [ACTOR, arg('proof', proof)],
  },
  passwords: { change: [ACTOR, arg('input', changePasswordBody), arg('presentedToken', z.string().min(1).max(512))] },
  deletion: { request: [ACTOR, arg('password', z.string().min(1, 'is required').max(200))] },
  posts: {
    create: [ACTOR, arg('input', createBody)],
    view: [ACTOR, id('postId')],
    delete: [ACTOR, id('postId')],
    wall: [ACTOR, id('userId'), ...page],
    bookmarks: [ACTOR, ...page],
  },
  engagement: {
    unreact: [ACTOR, id('postId')],
    reactions: [ACTOR, id('postId')],
    share: [ACTOR, id('postId')],
    bookmark: [ACTOR, id('postId')],
    unbookmark: [ACTOR, id('postId')],
  },
  comments: { create: [ACTOR, arg('input', newCommentBody(COMMENT_MAX_LENGTH))], list: [ACTOR, id('postId'), ...page], delete: [ACTOR, id('commentId')] },
  stories: { active: [ACTOR], ofUser: [ACTOR, id('userId')], delete: [ACTOR, id('storyId')] },
  privateMessages: { send: [ACTOR, id('recipientId'), arg('input', z.object(messageBody))], delete: [ACTOR, id('messageId')], unreact: [ACTOR, id('messageId')] },
  messageGroups: {
    details: [ACTOR, id('groupId')],
    leave: [ACTOR, id('groupId')],
    addMember: [ACTOR, id('groupId'), id('userId')],
    removeMember: [ACTOR, id('groupId'), id('userId')],
    deleteMessage: [ACTOR, id('messageId')],
  },
  follows: { follow: [ACTOR, id('userId')], unfollow: [ACTOR, id('userId')] },
  friends: { send: [ACTOR, id('userId')], accept: [ACTOR, id('requestId')], reject: [ACTOR, id('requestId')], remove: [ACTOR, id('userId')] },
} satisfies Record<string, Record<string, Argument[]>>;

/**
 * The service with the named methods checking their arguments first; a refusal is the `Invalid`
 * HTTP would answer, and the service is not called. Other methods are the service's own.
 */
export function checkedInput<S extends object, R extends { [M in keyof R]: M extends keyof S ? Argument[] : never }>(service: S, rules: R): S {
  return new Proxy(service, {
    get(target, property, receiver) {
      const original = Reflect.get(target, property, receiver);
      // A rule names a method of the service: the type above refuses any other name.
      const argumentsOf = (rules as Record<PropertyKey, Argument[] | undefined>)[property];
      if (!argumentsOf || typeof original !== 'function') return original;
      return (...args: unknown[]) => {
        let checked: unknown[];
        try {
          // A missing argument is checked too: undefined fails a required one's schema.
          checked = Array.from({ length: Math.max(args.length, argumentsOf.length) }, (_, i) => checkArgument(argumentsOf[i], args[i]));
        } catch (error) {
          // The checked use cases are async: a refusal is a rejection, as the service's own are.
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
    const details = validationProblems(result.error, argument.prefix).map((d) => (d.field === '(body)' ? { ...d, field: argument.name } : d));
    throw new Invalid(details.map((d) => `${d.field}: ${d.problem}`).join('; '), 'invalid_input', details);
  }
  return argument.parsed ? result.data : value;
}
