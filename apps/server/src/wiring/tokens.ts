import { token, type OutboxLane } from '@plaza/domain';
import type { AdminSection, HttpMount, Pages, Script } from '@plaza/adapters-http';
import type { CounterContribution, DatabaseHandle, PlazaMigrations } from '@plaza/adapters-mysql';
import type { RedisConnections } from '@plaza/adapters-integrations/redis';
import type { Logger } from 'pino';
import type { Config } from '../config.js';

/** Infrastructure every module may depend on; bound by the composition root before modules load. */
export const ConfigToken = token<Config>('Config');
export const LoggerToken = token<Logger>('Logger');
export const DatabaseToken = token<DatabaseHandle>('Database');
/** The Redis connections when REDIS_URL is set, else null: the database does everything (docs/decisions/0160). */
export const RedisToken = token<RedisConnections | null>('Redis');

/** A job's body; the runner calls it every `everyMs` and logs its failures. */
export type JobRun = () => Promise<unknown>;

export interface PeriodicJob {
  name: string;
  everyMs: number;
  run: JobRun;
  /** The outbox the job drains: BullMQ relays its rows instead of running `run` (docs/decisions/0215). */
  outbox?: OutboxLane;
}

/** Multi-bound: each module adds its own, and the app, the job runner and the migrator collect them. */
export const Scripts = token<Script>('http.Script');
/** Browser pages served beside the scripts (the admin panel). */
export const PagesToken = token<Pages>('http.Pages');
/** Parts of the admin panel in files of their own (users, reports, federation…): any module adds its own. */
export const AdminSections = token<AdminSection>('http.AdminSection');
/** Handlers of non-script URLs given the raw request (federation's documents and inboxes). */
export const Mounts = token<HttpMount>('http.Mount');
export const Jobs = token<PeriodicJob>('Job');
export const Migrations = token<PlazaMigrations>('Migrations');
/**
 * Multi-bound: a module's rows that move another module's counters (federation's remote likes move
 * the wall's), counted when those counters are recounted (docs/decisions/0226).
 */
export const CounterContributions = token<CounterContribution>('sql.CounterContribution');
