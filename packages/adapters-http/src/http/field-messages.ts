import type { FieldProblem } from '@plaza/domain';
import { type core, z } from 'zod';

/**
 * Validation failures in plain words, one sentence per field that names it ("content is required",
 * "user_id must be a positive whole number", "media[0] must name a file you uploaded"). The sentence is
 * derived from the field's schema (its type, bounds, enum values, list items), not from the
 * validator's wording, so every operation gets it without writing any. An operation gives a field a
 * message of its own the way zod takes one (`z.string().min(1, 'must name a file you uploaded')`,
 * a `refine` message): a message that is not zod's default wording is kept, after the field's name.
 */
export function fieldProblems(error: z.ZodError, checked: CheckedValue = {}): FieldProblem[] {
  const problems = new Map<string, string>();
  const name = (path: readonly PropertyKey[]) => fieldName(checked.prefix ? [checked.prefix, ...path] : path, checked.root ?? '(body)');
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = name([...issue.path, key]);
        if (!problems.has(field)) problems.set(field, `${field} is not a field this request takes`);
      }
      continue;
    }
    const field = name(issue.path);
    if (problems.has(field)) continue; // One message per field: the first says what the field must be.
    const schema = checked.schema ? schemaAt(checked.schema, issue.path) : undefined;
    problems.set(field, sentence(issue, field, schema, 'input' in checked ? valueAt(checked.input, issue.path) : NOT_KNOWN));
  }
  return [...problems].map(([field, problem]) => ({ field, problem }));
}

/** What was checked: the schema and the value (to tell a missing field), and how to name its fields. */
export interface CheckedValue {
  schema?: z.ZodType;
  input?: unknown;
  /** Put before every field's path (`candidate` → `candidate.sdpMid`). */
  prefix?: string;
  /** The name of the value as a whole, when the problem is with it: `(body)` unless told. */
  root?: string;
}

const NOT_KNOWN = Symbol('not known');

/** The sentences of `problems`, one after another: the `message` of the error answer. */
export function problemsMessage(problems: FieldProblem[]): string {
  return problems.map((p) => p.problem).join('; ');
}

/** `media[0]`, `candidate.sdpMid`, or the root's name (`(body)`) for the value as a whole. */
function fieldName(path: readonly PropertyKey[], root: string): string {
  let name = '';
  for (const key of path) name += typeof key === 'number' ? `[${key}]` : `${name ? '.' : ''}${String(key)}`;
  return name || root;
}

function sentence(issue: core.$ZodIssue, field: string, schema: z.ZodType | undefined, value: unknown): string {
  const own = customMessage(issue);
  if (own !== null) {
    if (new RegExp(`(^|[^\\w])${escapeRegExp(field)}([^\\w]|$)`).test(own)) return own;
    return /^(must|is|are|needs?|names?|cannot|may|should|at most|at least)\b/.test(own) ? `${field} ${own}` : `${field}: ${own}`;
  }
  if (value === undefined || (value === null && !acceptsNull(schema))) return `${field} is required`;
  if (value === NOT_KNOWN && issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) return `${field} is required`;
  if (schema) return `${field} must be ${describe(schema)}`;
  return `${field} is not valid`;
}

/** The issue's message when an operation wrote it, null when it is the validator's default wording. */
function customMessage(issue: core.$ZodIssue): string | null {
  if (issue.code === 'custom') return issue.message;
  const error = z.config().localeError;
  const fallback = error?.(issue as never);
  const wording = typeof fallback === 'string' ? fallback : fallback?.message;
  // The issue no longer holds the input, so the default wording of a wrong type names another one.
  const bare = (m: string) => m.replace(/, received .*$/, '');
  return wording === undefined || bare(wording) === bare(issue.message) ? null : issue.message;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'success']);

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type)) current = def.innerType as z.ZodType;
    else if (def.type === 'lazy') current = (def.getter as () => z.ZodType)();
    else break;
  }
  return current;
}

function acceptsNull(schema: z.ZodType | undefined): boolean {
  return schema !== undefined && schema.safeParse(null).success;
}

/** The schema of the value at `path` inside `schema`, if it can be told. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const key of path) {
    if (!current) return undefined;
    current = childOf(current, key);
  }
  return current;
}

function childOf(schema: z.ZodType, key: PropertyKey): z.ZodType | undefined {
  const s = unwrap(schema);
  const def = defOf(s);
  switch (def.type) {
    case 'object':
      return (def.shape as Record<string, z.ZodType>)[String(key)];
    case 'array':
      return typeof key === 'number' ? (def.element as z.ZodType) : undefined;
    case 'record':
      return def.valueType as z.ZodType;
    case 'pipe':
      return childOf(def.in as z.ZodType, key) ?? childOf(def.out as z.ZodType, key);
    case 'union':
      for (const option of def.options as z.ZodType[]) {
        const child = childOf(option, key);
        if (child) return child;
      }
      return undefined;
    case 'intersection':
      return childOf(def.left as z.ZodType, key) ?? childOf(def.right as z.ZodType, key);
    default:
      return undefined;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

type CheckDef = {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  length?: number;
  format?: string;
};
const checksOf = (def: Def): CheckDef[] => ((def.checks as { _zod: { def: CheckDef } }[] | undefined) ?? []).map((c) => c._zod.def);

/** What a value of `schema` is, in words: "a positive whole number", "one of like, love", "text of at most 64 characters". */
export function describe(schema: z.ZodType): string {
  const s = unwrap(schema);
  const def = defOf(s);
  switch (def.type) {
    case 'string':
      return describeString(def);
    case 'number':
    case 'int':
    case 'bigint':
      return describeNumber(def);
    case 'boolean':
      return 'true or false';
    case 'enum':
    case 'literal': {
      const values = valuesOf(s);
      return values ? oneOf(values) : 'a valid value';
    }
    case 'array':
      return describeArray(def);
    case 'object':
    case 'record':
      return 'an object';
    case 'pipe': {
      const out = def.out as z.ZodType;
      return defOf(out).type === 'transform' ? describe(def.in as z.ZodType) : describe(out);
    }
    case 'union': {
      const options = def.options as z.ZodType[];
      const values = options.map(valuesOf);
      if (values.every((v) => v !== null)) return oneOf(values.flat() as unknown[]);
      return [...new Set(options.map(describe))].join(' or ');
    }
    case 'date':
      return 'a date';
    default:
      return 'a valid value';
  }
}

/** The values an enum, literal or boolean takes; null for any other schema. */
function valuesOf(schema: z.ZodType): unknown[] | null {
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === 'enum') return Object.values(def.entries as Record<string, unknown>);
  if (def.type === 'literal') return [...(def.values as unknown[])];
  if (def.type === 'boolean') return [true, false];
  if (def.type === 'pipe' && defOf(def.out as z.ZodType).type === 'transform') return valuesOf(def.in as z.ZodType);
  if (def.type === 'union') {
    const all = (def.options as z.ZodType[]).map(valuesOf);
    return all.every((v) => v !== null) ? (all.flat() as unknown[]) : null;
  }
  return null;
}

function oneOf(values: unknown[]): string {
  const shown = [...new Set(values.filter((v) => v !== '' && v !== null && v !== undefined).map(String))];
  if (shown.length > 0 && shown.every((v) => ['true', 'false', '1', '0'].includes(v))) return 'true or false';
  if (shown.length === 1) return shown[0];
  return `one of ${shown.join(', ')}`;
}

function describeString(def: Def): string {
  let min: number | undefined;
  let max: number | undefined;
  let exact: number | undefined;
  let format: string | undefined;
  for (const c of checksOf(def)) {
    if (c.check === 'min_length') min = Math.max(min ?? 0, c.minimum ?? 0);
    else if (c.check === 'max_length') max = Math.min(max ?? Number.POSITIVE_INFINITY, c.maximum ?? Number.POSITIVE_INFINITY);
    else if (c.check === 'length_equals') exact = c.length;
    else if (c.check === 'string_format') format = c.format;
  }
  const formatName = format ? FORMATS[format] : undefined;
  if (formatName) return max === undefined ? formatName : `${formatName} of at most ${max} characters`;
  const what = format === 'regex' || format !== undefined ? 'text in the expected format' : 'text';
  if (exact !== undefined) return `${what} of exactly ${exact} characters`;
  if (min !== undefined && min > 0 && max !== undefined) return `${what} of ${min} to ${max} characters`;
  if (max !== undefined) return `${what} of at most ${max} characters`;
  if (min !== undefined && min > 0) return min === 1 ? `non-empty ${what}` : `${what} of at least ${min} characters`;
  return what;
}

const FORMATS: Record<string, string> = {
  email: 'an e-mail address',
  url: 'a URL',
  uuid: 'a UUID',
  datetime: 'a date and time',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

function describeNumber(def: Def): string {
  let whole = def.type === 'int' || def.type === 'bigint';
  let low: { value: number; inclusive: boolean } | undefined;
  let high: { value: number; inclusive: boolean } | undefined;
  for (const c of checksOf(def)) {
    if (c.check === 'number_format' && /int/.test(String(c.format))) whole = true;
    else if (c.check === 'greater_than') low = { value: Number(c.value), inclusive: c.inclusive === true };
    else if (c.check === 'less_than') high = { value: Number(c.value), inclusive: c.inclusive === true };
  }
  const noun = whole ? 'whole number' : 'number';
  if (high && high.value >= Number.MAX_SAFE_INTEGER) high = undefined;
  const positive = low && ((low.value === 0 && !low.inclusive) || (whole && low.value === 1 && low.inclusive));
  const lowest = low ? (low.inclusive || !whole ? low.value : low.value + 1) : undefined;
  const highest = high ? (high.inclusive || !whole ? high.value : high.value - 1) : undefined;
  if (low && high) return `a ${noun} from ${lowest} to ${highest}`;
  if (positive) return `a positive ${noun}`;
  if (low) return low.inclusive ? `a ${noun} of at least ${low.value}` : `a ${noun} greater than ${low.value}`;
  if (high) return high.inclusive ? `a ${noun} of at most ${high.value}` : `a ${noun} less than ${high.value}`;
  return `a ${noun}`;
}

function describeArray(def: Def): string {
  let min: number | undefined;
  let max: number | undefined;
  for (const c of checksOf(def)) {
    if (c.check === 'min_length') min = c.minimum;
    else if (c.check === 'max_length') max = c.maximum;
    else if (c.check === 'length_equals') min = max = c.length;
  }
  const size =
    min !== undefined && max !== undefined
      ? min === max
        ? ` of exactly ${min} items`
        : ` of ${min} to ${max} items`
      : max !== undefined
        ? ` of at most ${max} items`
        : min !== undefined && min > 0
          ? ` of at least ${min} ${min === 1 ? 'item' : 'items'}`
          : '';
  return `a list${size}, each ${describe(def.element as z.ZodType).replace(/^an? /, '')}`;
}
