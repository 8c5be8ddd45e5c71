import { Invalid } from '@plaza/domain';
import { problemsMessage, validationProblems, zId, zPage, zPerPage } from '@plaza/adapters-http';
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
export interface Argument {
  name: string;
  schema: z.ZodType;
  /** Hand the service the parsed value (schemas that coerce or default), else the caller's own. */
  parsed?: boolean;
  /** Prefixes its fields' names in the details (`actor.userId`); a body's fields are named as HTTP names them. */
  prefix?: string;
}

export const ACTOR: Argument = { name: 'actor', schema: actor, prefix: 'actor' };
/** A use case's arguments, in order; `streams` marks one that answers an async iterable instead of a promise. */
export type Rule = readonly Argument[] & { readonly streams?: true };
/** A use case that answers an async iterable (the export's files): a refusal is its first step's rejection. */
export const streams = (args: Argument[]): Rule => Object.assign(args, { streams: true as const });
export const arg = (name: string, schema: z.ZodType): Argument => ({ name, schema, parsed: true });

export const id = (name: string) => arg(name, zId);
/** `page` and `per_page` of the paged reads, as their query declares them. */
export const page = [arg('page', zPage), arg('perPage', zPerPage)];

/** A paged read's `{ page, perPage }`, with the bounds of `page` and `per_page` as the queries declare them. */
export const pageRequest = arg('page', z.object({ page: zPage.unwrap(), perPage: zPerPage.unwrap() }));
/** An optional trailing page: the services' own default applies when it is left out. */
export const optionalPage = arg('page', pageRequest.schema.optional());
/** The methods of a service: everything callable on it. */
type MethodsOf<S> = { [K in keyof S]-?: S[K] extends (...args: never[]) => unknown ? K : never }[keyof S];
/** The rules of one service: one for each of its methods, or it does not compile (a new method needs its rule). */
export type InputRules<S> = { readonly [K in MethodsOf<S>]-?: Rule };
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
