/**
 * A small RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks. Enough for
 * the spreadsheets an instance's admins export; not a streaming parser.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

export interface UserRow {
  line: number;
  username: string;
  email: string;
  password: string | null;
  cause: string | null;
}

/** Rows as records by the header's column names; `username` and `email` are required columns. */
export function userRows(text: string): UserRow[] {
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  if (!header) return [];
  const col = (name: string) => header.findIndex((h) => h.trim().toLowerCase() === name);
  const [u, e, p, c] = ['username', 'email', 'password', 'cause'].map(col);
  if (u < 0 || e < 0) throw new Error('the CSV header must name the columns username and email');
  return rows.map((r, i) => ({
    line: i + 2,
    username: (r[u] ?? '').trim(),
    email: (r[e] ?? '').trim(),
    password: p >= 0 && r[p]?.trim() ? r[p].trim() : null,
    cause: c >= 0 && r[c]?.trim() ? r[c].trim() : null,
  }));
}
