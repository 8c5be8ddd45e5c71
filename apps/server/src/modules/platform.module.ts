import {
  Clock,
  type FailedJobRuns,
  InMemoryRateLimitStore,
  type JobRunner,
  OutboxSignal,
  RateLimiter,
  RateLimitStore,
  RATE_LIMIT_WINDOW_SECONDS,
  TimerJobRunner,
  token,
  UnitOfWork,
} from '@plaza/domain';
import { rolesOf } from '@plaza/domain/accounts';
import { createTimeFormatter, type HealthCheck, jobsSection, type PresenterContext } from '@plaza/adapters-http';
import { settingsScript, type PublicSettingsSource } from '@plaza/adapters-http/scripts/settings';
import { TurnSettingsStore } from '@plaza/domain/admin';
import { BASELINE_MIGRATIONS, KyselyUnitOfWork, pingDatabase } from '@plaza/adapters-mysql';
import { SqlRateLimitStore } from '@plaza/adapters-mysql/limits';
import { ConfiguredPublicSettings } from '../public-settings.js';
import { featureModule, many } from '../wiring/feature-module.js';
import { BullJobRunner, RedisRateLimitStore } from '@plaza/adapters-integrations/redis';
import { AdminSections, ConfigToken, DatabaseToken, Jobs, LoggerToken, RedisToken } from '../wiring/tokens.js';

export const Platform = {
  RateLimiter: token<RateLimiter>('platform.RateLimiter'),
  Presenters: token<PresenterContext>('platform.PresenterContext'),
  Health: token<HealthCheck>('platform.Health'),
  PublicSettings: token<PublicSettingsSource>('platform.PublicSettings'),
  /** What runs every module's periodic jobs, and keeps their failed runs (docs/decisions/0160). */
  JobRunner: token<JobRunner & FailedJobRuns>('platform.JobRunner'),
  /** Where services say they committed outbox rows; the BullMQ runner listens and relays them (docs/decisions/0215). */
  OutboxSignal: token<OutboxSignal>('platform.OutboxSignal'),
};

/** What platform declares outside the container (docs/decisions/0130): the contract suites of its ports; no use cases of its own (the server's plumbing). */
const face = {
  name: 'platform',
  ports: {
    // limits
    RateLimitStore: { suites: ['limits/testing/rate-limit-store.contract.ts'], via: 'store' },
    // shared
    Clock: 'no SQL adapter',
    UnitOfWork: { suites: ['shared/testing/unit-of-work.contract.ts'], via: 'uow' },
  },
} as const;

/** What every context leans on: units of work, rate limits, presenters' time, health, public settings, the first tables. */
export const platformModule = featureModule(face, (w) => {
  w.migrations(BASELINE_MIGRATIONS);
  w.bind(
    UnitOfWork,
    [DatabaseToken, LoggerToken],
    ({ db }, logger) => new KyselyUnitOfWork(db, (err) => logger.error({ err }, 'an effect after a commit failed')),
  );
  w.bind(RateLimitStore, [ConfigToken, DatabaseToken, RedisToken], (config, { db, dialect }, redis) => {
    if (config.rateLimitStore === 'redis' && redis) return new RedisRateLimitStore(redis.commands, redis.prefix);
    return config.rateLimitStore === 'database' ? new SqlRateLimitStore(db, dialect) : new InMemoryRateLimitStore();
  });
  w.bind(
    Platform.RateLimiter,
    { store: RateLimitStore, config: ConfigToken, clock: Clock },
    ({ store, config, clock }) => new RateLimiter(store, config.rateLimits, clock, config.loginAccountLimit),
  );
  w.bind(Platform.Presenters, { config: ConfigToken, clock: Clock }, ({ config, clock }) => ({
    formatTime: createTimeFormatter(config.timeZone),
    now: () => clock.now(),
    roles: (u) => rolesOf(u, config.technicianUserIds),
  }));
  w.bind(Platform.Health, [DatabaseToken, Clock], ({ root, dialect }, clock) => ({
    async check() {
      // The root instance: the ping must never run inside (or wait for) a unit of work.
      const reachable = await pingDatabase(root);
      return {
        status: reachable ? ('ok' as const) : ('degraded' as const),
        timestamp: clock.now().toISOString().slice(0, 19).replace('T', ' '),
        database: { reachable, dialect },
      };
    },
  }));
  w.construct(Platform.PublicSettings, ConfiguredPublicSettings, [ConfigToken, Clock, TurnSettingsStore]);
  w.script([Platform.PublicSettings], settingsScript);
  // BullMQ's one worker pool when Redis is configured, timers in this process otherwise; each failed run is one JSON line.
  w.construct(Platform.OutboxSignal, OutboxSignal, []);
  w.bind(
    Platform.JobRunner,
    { jobs: many(Jobs), config: ConfigToken, redis: RedisToken, logger: LoggerToken, signal: Platform.OutboxSignal },
    ({ jobs, config, redis, logger, signal }) =>
      redis && config.redis
        ? new BullJobRunner(
            redis,
            jobs,
            config.redis.jobs,
            { failed: (details) => logger.error({ job_run: details }, 'periodic job failed') },
            signal,
          )
        : new TimerJobRunner(jobs, (job, err) => logger.error({ err, job }, 'periodic job failed')),
  );
  w.bind(AdminSections, { runs: Platform.JobRunner }, ({ runs }) => jobsSection(runs));
  w.job(
    { name: 'purge-rate-limit-counters', everyMs: 10 * 60_000 },
    { store: RateLimitStore, clock: Clock },
    ({ store, clock }) =>
      async () => {
        const now = Math.floor(clock.now().getTime() / 1000);
        await store.purge(now - RATE_LIMIT_WINDOW_SECONDS);
      },
  );
});
