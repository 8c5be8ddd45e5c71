import { RATE_LIMIT_GROUPS } from '@plaza/domain';
import { z } from 'zod';
import { rateLimitGroupOf } from '../http/dispatcher.js';
import { op, type AnyOperation, type Script } from '../http/operation.js';

function fieldsOf(schema: unknown): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** One operation of the registry as index.php lists it. */
export const EndpointItem = z.object({
  script: z.string().regex(/^[\w-]+\.php$/),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
  path: z.string().startsWith('/api/v1/'),
  selector: z.object({ action: z.string().optional(), path: z.string().optional(), has: z.array(z.string()).optional() }),
  auth: z.enum(['required', 'optional', 'none']),
  rate_limit_group: z.enum(RATE_LIMIT_GROUPS),
  query_fields: z.array(z.string()),
  body_fields: z.array(z.string()),
  success_status: z.number().int().min(200).max(299),
  /** Only for an operation whose success is a file download (export.php): its content types. */
  download_types: z.array(z.string()).optional(),
  summary: z.string().min(1),
});

export function describeOperation(script: Script, o: AnyOperation): z.input<typeof EndpointItem> {
  return {
    script: `${script.name}.php`,
    method: o.method,
    path: `/api/v1/${script.name}.php`,
    selector: o.select ?? {},
    auth: o.auth,
    rate_limit_group: rateLimitGroupOf(o),
    query_fields: fieldsOf(o.query),
    body_fields: fieldsOf(o.body),
    success_status: o.status ?? 200,
    ...(o.download ? { download_types: o.download.contentTypes } : {}),
    summary: o.summary,
  };
}

/** index.php's payload: the API's name and prefixes, and every operation. */
const IndexPayload = z.object({
  name: z.literal('Plaza'),
  version: z.literal('v1'),
  prefixes: z.array(z.string().regex(/^\/.*\/$/)),
  endpoints: z.array(EndpointItem).min(1),
  /** Public URLs outside the scripts (federation: WebFinger, actor, inboxes), by name; `{username}` stands for a user's name. */
  public_paths: z.record(z.string(), z.string().startsWith('/')).optional(),
});

/** index.php: every operation, straight from the dispatcher's registry. */
export function indexScript(registry: () => Script[], publicPaths: () => Record<string, string> = () => ({})): Script {
  return {
    name: 'index',
    operations: [
      op({
        method: 'GET',
        auth: 'none',
        summary: 'List every endpoint of this API',
        response: IndexPayload,
        handle: async () => {
          const scripts = registry();
          return {
            name: 'Plaza' as const,
            version: 'v1' as const,
            prefixes: ['/api/v1/', '/v1/'],
            endpoints: scripts.flatMap((s) => s.operations.map((o) => describeOperation(s, o))),
            ...(Object.keys(publicPaths()).length > 0 ? { public_paths: publicPaths() } : {}),
          };
        },
      }),
    ],
  };
}
