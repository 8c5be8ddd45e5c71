/**
 * The JSON text of an answer, byte for byte what `JSON.stringify` writes, with each value that the
 * answer holds twice serialised once (docs/decisions/0075). Lists are sent under both `data.<key>`
 * and `<key>` for the clients that read one or the other (`data.posts` and `posts`): the same array
 * object in two places, which `JSON.stringify` would walk and encode twice.
 *
 * Only the top level and `data` are looked at (where the contract puts the copies); deeper values are
 * `JSON.stringify`'s own work.
 */
export function answerJson(body: Record<string, unknown>): string {
  const data = body.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return JSON.stringify(body);
  const candidates = new Set<unknown>();
  for (const value of Object.values(data)) if (value !== null && typeof value === 'object') candidates.add(value);
  let twice = false;
  for (const [key, value] of Object.entries(body)) if (key !== 'data' && candidates.has(value)) twice = true;
  if (!twice) return JSON.stringify(body);
  const encoded = new Map<unknown, string>();
  const encode = (value: unknown): string | undefined => {
    if (!candidates.has(value)) return JSON.stringify(value);
    let text = encoded.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      encoded.set(value, text);
    }
    return text;
  };
  return objectJson(body, (key, value) =>
    key === 'data' ? objectJson(data as Record<string, unknown>, (_, v) => encode(v)) : encode(value),
  );
}

/** `{"k":v,…}` of the own enumerable keys, skipping what JSON.stringify skips (undefined values, functions, symbols). */
function objectJson(object: Record<string, unknown>, encode: (key: string, value: unknown) => string | undefined): string {
  if (typeof (object as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(object);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const text = encode(key, value);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
