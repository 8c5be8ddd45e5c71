import type { Clock } from '@plaza/domain';
import type { PublicSettings, PublicSettingsSource } from '@plaza/adapters-http/scripts/settings';
import { iceConfiguration } from '@plaza/adapters-integrations';
import type { Config } from './config.js';

/** settings.php: the public push and WebRTC settings, flat, as contract §2 reads them. */
export class ConfiguredPublicSettings implements PublicSettingsSource {
  constructor(
    private readonly config: Config,
    private readonly clock: Clock,
  ) {}

  forUser(userId: number | null): PublicSettings {
    const w = this.config.webrtc;
    const ice = iceConfiguration(
      w.stunUrls,
      {
        urls: w.turnUrls,
        authSecret: w.turnAuthSecret,
        ttlSeconds: w.turnTtl,
        realm: w.turnRealm,
        username: w.turnUsername,
        credential: w.turnCredential,
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
      turn_realm: w.turnRealm,
    };
  }
}
