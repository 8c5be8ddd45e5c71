import { z } from 'zod';
import { rateLimitGroupOf } from '../http/dispatcher.js';
import { op, type Operation, type Script } from '../http/operation.js';

function fieldsOf(schema: unknown): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

export function describeOperation(script: Script, o: Operation<any, any>) {
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
    summary: o.summary,
  };
}

/** index.php: every operation, straight from the dispatcher's registry. */
export function indexScript(registry: () => Script[]): Script {
  return {
    name: 'index',
    operations: [
      op({
        method: 'GET',
        auth: 'none',
        summary: 'List every endpoint of this API',
        handle: async () => {
          const scripts = registry();
          return {
            name: 'Plaza',
            version: 'v1',
            prefixes: ['/api/v1/', '/v1/'],
            endpoints: scripts.flatMap((s) => s.operations.map((o) => describeOperation(s, o))),
          };
        },
      }),
    ],
  };
}
