import type { AuthService, ProfileService } from '@plaza/domain';
import type { Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import type { FederationIdentity } from '../presenters/user.js';
import { authScript } from './auth.js';
import { indexScript } from './index-script.js';
import { settingsScript, type PublicSettingsSource } from './settings.js';
import { usersScript } from './users.js';

export interface HealthReport {
  status: 'ok' | 'degraded';
  timestamp: string;
  database: { reachable: boolean; dialect: string };
}

/** Everything the HTTP side calls; the composition root fills it. */
export interface HttpServices {
  auth: AuthService;
  profiles: ProfileService;
  settings: PublicSettingsSource;
  federation: FederationIdentity;
  health: { check(): Promise<HealthReport> };
}

export function buildScripts(s: HttpServices, p: PresenterContext): Script[] {
  const scripts: Script[] = [];
  scripts.push(
    indexScript(() => scripts),
    authScript(s.auth, p),
    usersScript(s.profiles, s.federation, p),
    settingsScript(s.settings),
  );
  return scripts;
}
