import type { Actor, RateLimitGroup } from '@plaza/domain';
import type { Context } from 'koa';
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How a request reaches an operation inside its script, besides the HTTP method:
 * - `action`: `?action=` or an `action` key of the JSON body;
 * - `path`: a `?path=` pattern whose `:name` segments match integers (`:id/messages`);
 * - `has`: query keys that must be present (`id`, flags such as `discover`).
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

interface OperationBase<QS extends AnyObjectSchema | undefined, BS extends AnyObjectSchema | undefined> {
  method: HttpMethod;
  select?: Selector;
  summary: string;
  /** Endpoint group of the spec's rate-limit table; when absent, `reads` for GET and `default` otherwise. */
  rateLimit?: RateLimitGroup;
  query?: QS;
  body?: BS;
  /** Success status, 200 unless the contract requires otherwise. */
  status?: number;
  /** Also accept the token as `?token=` (export.php, which the client opens in a browser). */
  acceptsQueryToken?: boolean;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

export type Operation<
  QS extends AnyObjectSchema | undefined = AnyObjectSchema | undefined,
  BS extends AnyObjectSchema | undefined = AnyObjectSchema | undefined,
> =
  | (OperationBase<QS, BS> & {
      auth: 'required';
      handle(ctx: OperationContext<Infer<QS>, Infer<BS>, Actor>): Promise<object>;
    })
  | (OperationBase<QS, BS> & {
      auth: 'optional' | 'none';
      handle(ctx: OperationContext<Infer<QS>, Infer<BS>, Actor | null>): Promise<object>;
    });

export interface Script {
  /** File name without `.php`. */
  name: string;
  operations: Operation<any, any>[];
}

/** Declares one operation with its input types inferred from the schemas. */
export function op<QS extends AnyObjectSchema | undefined = undefined, BS extends AnyObjectSchema | undefined = undefined>(
  operation: Operation<QS, BS>,
): Operation<any, any> {
  return operation as Operation<any, any>;
}
