/**
 * A list stored as JSON text (posts' and group posts' `media` and `tags`): its items as strings, or
 * none when the text is not a JSON array (rows written by the PHP service may hold anything).
 */
export function parseList(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}
