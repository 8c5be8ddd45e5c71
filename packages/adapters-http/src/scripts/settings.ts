import { op, type Script } from '../http/operation.js';

export interface PublicSettingsSource {
  /** The flat settings object of contract §2; TURN credentials are derived for this user (or anonymous). */
  forUser(userId: number | null): Record<string, unknown>;
}

export function settingsScript(settings: PublicSettingsSource): Script {
  return {
    name: 'settings',
    operations: [
      op({
        method: 'GET',
        auth: 'optional',
        summary: 'Public settings: push provider, STUN/TURN/ICE servers',
        handle: async (ctx) => settings.forUser(ctx.actor?.userId ?? null),
      }),
    ],
  };
}
