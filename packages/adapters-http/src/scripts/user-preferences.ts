import { PREFERENCE_ALIASES, PREFERENCE_KEYS, type PreferenceKey, type PreferenceService, type Preferences } from '@plaza/domain/accounts';
import { z } from 'zod';
import { op, type Script } from '../http/operation.js';

/** Contract §7: booleans, 0/1, "0"/"1", "true"/"false" in; always JSON booleans out. */
const zPreferenceValue = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])], { error: 'must be true, false, 1 or 0' })
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true');

const ALL_KEYS = [...PREFERENCE_KEYS, ...Object.keys(PREFERENCE_ALIASES)];

/** Unknown keys are refused (400) rather than ignored: a typo must not look like a saved setting. */
export const patch = z.strictObject(Object.fromEntries(ALL_KEYS.map((k) => [k, zPreferenceValue.optional()]))) as unknown as z.ZodType<
  Partial<Record<string, boolean>>
>;

const PreferencesPayload = z.object(
  Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, z.boolean()])) as Record<PreferenceKey, z.ZodBoolean>,
);

/** The clients' other spellings under the service's keys; the library's check applies it too (docs/decisions/0113). */
export function canonical(body: Partial<Record<string, boolean>>): Partial<Preferences> {
  const out: Partial<Preferences> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    out[(PREFERENCE_ALIASES[key] ?? key) as PreferenceKey] = value;
  }
  return out;
}

export function userPreferencesScript(preferences: PreferenceService): Script {
  return {
    name: 'user_preferences',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        summary: 'Notification and privacy preferences, at the top level, as JSON booleans',
        response: PreferencesPayload,
        handle: async (ctx) => preferences.view(ctx.actor),
      }),
      op({
        method: 'PUT',
        auth: 'required',
        body: patch,
        summary: 'Change preferences (the clients send one key at a time); answers them all',
        response: PreferencesPayload,
        handle: async (ctx) => preferences.update(ctx.actor, canonical(ctx.body)),
      }),
    ],
  };
}
