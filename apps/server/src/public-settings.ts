import type { Clock } from '@plaza/domain';
import type { PublicSettings, PublicSettingsSource } from '@plaza/adapters-http/scripts/settings';
import { iceConfiguration } from '@plaza/adapters-integrations';
import { effectiveTurnRelay, type TurnEnvironment, type TurnSettingsStore } from '@plaza/domain/admin';
import type { Config } from './config.js';

/** The WEBRTC_TURN_* settings of the environment, which win over config/turn.local.php when WEBRTC_TURN_URLS is set. */
export function turnEnvironment(config: Config): TurnEnvironment {
  const w = config.webrtc;
  return {
    urls: w.turnUrls,
    authSecret: w.turnAuthSecret,
    ttl: w.turnTtl,
    realm: w.turnRealm,
    username: w.turnUsername,
    credential: w.turnCredential,
  };
}

/** settings.php: the public push and WebRTC settings, flat, as contract §2 reads them. */
export class ConfiguredPublicSettings implements PublicSettingsSource {
  constructor(
    private readonly config: Config,
    private readonly clock: Clock,
    /** config/turn.local.php, which the admin panel writes; the environment's WEBRTC_TURN_* win when set. */
    private readonly turnFile: TurnSettingsStore,
  ) {}

  async forUser(userId: number | null): Promise<PublicSettings> {
    const w = this.config.webrtc;
    const relay = effectiveTurnRelay(turnEnvironment(this.config), await this.turnFile.read()).values;
    const ice = iceConfiguration(
      w.stunUrls,
      {
        urls: relay?.urls ?? [],
        authSecret: relay?.secret ?? null,
        ttlSeconds: relay?.ttl ?? w.turnTtl,
        realm: relay?.realm ?? null,
        username: relay?.username ?? null,
        credential: relay?.credential ?? null,
      },
      userId,
      this.clock.now(),
    );
    return {
      onesignal_app_id: this.config.push.oneSignalAppId ?? '',
      push_provider: this.config.push.oneSignalAppId ? 'onesignal' : this.config.push.ntfyServer ? 'ntfy' : 'none',
      ntfy_server: this.config.push.ntfyServer,
      ntfy_topic_prefix: this.config.push.ntfyTopicPrefix,
      stun_servers: ice.stun_servers,
      turn_servers: ice.turn_servers,
      webrtc_ice_servers: ice.ice_servers,
      ice_servers: ice.ice_servers,
      turn_credentials_mode: ice.turn_credentials_mode,
      turn_credentials_ttl: ice.turn_credentials_ttl,
      turn_realm: relay?.realm ?? null,
      registration: this.config.registration.mode,
      registration_email_confirm: this.config.registration.emailConfirm,
    };
  }
}
