import 'reflect-metadata';
import { Clock, SystemClock } from '@plaza/domain';
import { Mailer } from '@plaza/domain/accounts';
import type { PushSender } from '@plaza/domain/notifications';
import { collectMigrations, type DatabaseHandle, type PlazaMigrations } from '@plaza/adapters-mysql';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { PLAZA_MODULES } from './modules/index.js';
import { Notifications } from './modules/notifications.module.js';
import { resolveAll } from './wiring/feature-module.js';
import type { RedisConnections } from '@plaza/adapters-integrations/redis';
import { ConfigToken, DatabaseToken, LoggerToken, Migrations, RedisToken } from './wiring/tokens.js';

/** Replacements for tests: a controllable clock, a recording mailer or push sender. */
export interface ContainerOverrides {
  clock?: Clock;
  mailer?: Mailer;
  push?: PushSender;
  /** The Redis connections startPlaza opened from REDIS_URL (it closes them); none: the database does it all. */
  redis?: RedisConnections | null;
}

/**
 * The composition root: binds the infrastructure, then loads every feature module, each of which
 * chooses the implementations of its own ports. Nothing is built until first resolved.
 */
export function buildContainer(config: Config, handle: DatabaseHandle, logger: Logger, overrides: ContainerOverrides = {}): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind(ConfigToken).toConstantValue(config);
  c.bind(LoggerToken).toConstantValue(logger);
  c.bind(DatabaseToken).toConstantValue(handle);
  c.bind(RedisToken).toConstantValue(overrides.redis ?? null);
  c.bind(Clock).toConstantValue(overrides.clock ?? new SystemClock());
  c.load(...PLAZA_MODULES);
  if (overrides.mailer) c.rebind(Mailer).toConstantValue(overrides.mailer);
  // The transport, behind the preference gate, so tests see exactly what would leave.
  if (overrides.push) c.rebind(Notifications.PushTransport).toConstantValue(overrides.push);
  return c;
}

/** Every module's migrations, without building anything else: for the migrator and test databases. */
export function plazaMigrations(): PlazaMigrations {
  const c = new Container();
  c.load(...PLAZA_MODULES);
  return collectMigrations(resolveAll(c, Migrations));
}
