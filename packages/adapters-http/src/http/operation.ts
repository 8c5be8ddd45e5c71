import type { Actor, RateLimitGroup } from '@plaza/domain';
import type { Context } from 'koa';
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How a request reaches an operation inside its script, besides the HTTP method. Every part matches
 * exactly, an absent part included, so that two operations of one method either differ somewhere or are
 * refused at start-up (`assertUnambiguous`); declaration order never decides.
 * - `action`: `?action=` or an `action` key of the JSON body; without it, only requests naming no action.
 * - `path`: a `?path=` pattern whose `:name` segments match integers (`:id/messages`); without it, only
 *   an absent or empty `?path=` (a script that declares no path at all ignores `?path=`).
 * - `has`: query keys (`id`, flags such as `discover`) that select among the operations of the same method,
 *   action and path. The request must carry exactly these of the keys those operations declare: with
 *   `{has: ['user_id']}` and `{has: ['typing_user_id']}` siblings, `?user_id=1&typing_user_id=2` matches
 *   neither (400), and a sibling without `has` serves only requests carrying none of them. Keys no
 *   sibling declares are ignored here and left to the query schema.
 */
export interface Selector {
  action?: string;
  path?: string;
  has?: string[];
}

export interface RequestInfo {
  id: string;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface OperationContext<Q, B, A extends Actor | null> {
  actor: A;
  query: Q;
  body: B;
  request: RequestInfo;
  /** Escape hatch for the rare operation that streams or sets headers itself. */
  koa: Context;
}

type AnyObjectSchema = z.ZodType<Record<string, unknown>>;

/**
 * A success payload: an object whose keys sit beside `success`, which only the dispatcher writes.
 * The handler's return type is inferred from it; tests validate every response against it.
 */
export type ResponseSchema = z.ZodType<Record<string, unknown> & { success?: never }>;

/**
 * A failure answered with HTTP 200 and `success: false`, for the rare operation whose contract requires
 * it (login: the client shows the server's `message` only on a 200; docs/decisions/0002). The operation
 * declares the payload in `refusal`; the handler returns `refuse(payload)` and the dispatcher writes
 * `{success: false, ...payload}`, so `success` stays the dispatcher's on both paths.
 */
export class Refusal<T = Record<string, unknown>> {
  constructor(readonly payload: T) {}
}

/** The refusal of an operation that declares `refusal`; see `Refusal`. */
export function refuse<T extends Record<string, unknown> & { success?: never }>(payload: T): Refusal<T> {
  return new Refusal(payload);
}

/**
 * A file answered instead of the JSON envelope (export.php): streamed as it is produced, with
 * `Content-Disposition: attachment`. Only for operations that declare `download`.
 */
export class Download {
  constructor(
    readonly body: AsyncIterable<string | Uint8Array> | NodeJS.ReadableStream,
    readonly contentType: string,
    readonly filename: string,
  ) {}
}

/** What a handler may answer: the success payload, a `Refusal` when the operation declares one, or a `Download`. */
type Outcome<RS extends ResponseSchema, FS extends ResponseSchema | undefined> =
  | z.input<RS>
  | (FS extends ResponseSchema ? Refusal<z.input<FS>> : never)
  | Download;

interface OperationBase<
  QS extends AnyObjectSchema | undefined,
  BS extends AnyObjectSchema | undefined,
  RS extends ResponseSchema,
  FS extends ResponseSchema | undefined,
> {
  method: HttpMethod;
  select?: Selector;
  summary: string;
  /** Endpoint group of the spec's rate-limit table; when absent, `reads` for GET and `default` otherwise. */
  rateLimit?: RateLimitGroup;
  /**
   * A login: also counted against the account that this body field names (user name or e-mail, as
   * typed), whatever the address, once the body is read (docs/decisions/0102).
   */
  limitPerAccount?: string;
  query?: QS;
  body?: BS;
  /** The success payload, without `success`. */
  response: RS;
  /** The payload of a 200 `success: false` answer (`Refusal`), without `success`; almost never needed. */
  refusal?: FS;
  /** Success status, 200 unless the contract requires otherwise. */
  status?: number;
  /** Also accept the token as `?token=` (export.php, which the client opens in a browser). */
  acceptsQueryToken?: boolean;
  /**
   * Served to a banned account too: every other operation refuses one with 403 `banned` right after
   * authentication (docs/decisions/0012). A function decides from the raw query, for an operation that
   * serves a banned account only some requests (sanctions.php?type=mine, not type=all).
   */
  allowBanned?: boolean | ((query: Record<string, string | undefined>) => boolean);
  /** The success answer is a file (`Download`), not JSON; `response` then documents nothing on the wire. */
  download?: { contentTypes: string[] };
  /**
   * Takes a multipart/form-data body (upload.php): its fields are the body, its files are streamed to a
   * temporary directory of the request (`receivedFiles(ctx.koa)`), refused with 413 past `maxFileBytes`,
   * and removed when the request ends.
   */
  multipart?: { maxFileBytes: number };
}

/** What a handler receives for a query or body schema: its parsed output, or nothing when none is declared. */
export type Infer<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

export type Operation<
  QS extends AnyObjectSchema | undefined = AnyObjectSchema | undefined,
  BS extends AnyObjectSchema | undefined = AnyObjectSchema | undefined,
  RS extends ResponseSchema = ResponseSchema,
  FS extends ResponseSchema | undefined = ResponseSchema | undefined,
> =
  | (OperationBase<QS, BS, RS, FS> & {
      auth: 'required';
      handle(ctx: OperationContext<Infer<QS>, Infer<BS>, Actor>): Promise<Outcome<RS, FS>>;
    })
  | (OperationBase<QS, BS, RS, FS> & {
      auth: 'optional' | 'none';
      handle(ctx: OperationContext<Infer<QS>, Infer<BS>, Actor | null>): Promise<Outcome<RS, FS>>;
    });

export interface Script {
  /** File name without `.php`. */
  name: string;
  operations: AnyOperation[];
}

export type AnyOperation = Operation<any, any, any, any>;

/** Declares one operation with its input and output types inferred from the schemas. */
export function op<
  QS extends AnyObjectSchema | undefined = undefined,
  BS extends AnyObjectSchema | undefined = undefined,
  RS extends ResponseSchema = ResponseSchema,
  FS extends ResponseSchema | undefined = undefined,
>(operation: Operation<QS, BS, RS, FS>): AnyOperation {
  return operation as AnyOperation;
}
