import { RateLimitStore, RATE_LIMIT_WINDOW_SECONDS, Clock } from '@plaza/domain';
import type { StoryService } from '@plaza/domain';
import { TYPES } from './tokens.js';
import type { MessageGroupService, PrivateMessageService, TypingService } from '@plaza/domain';
import type { Container } from 'inversify';
import type { Logger } from 'pino';

export interface PeriodicJob {
  name: string;
  everyMs: number;
  run(container: Container): Promise<unknown>;
}

/** Housekeeping that runs inside the server process. Each feature adds its own entry. */
export const JOBS: PeriodicJob[] = [
  {
    name: 'purge-rate-limit-counters',
    everyMs: 10 * 60_000,
    async run(c) {
      const now = Math.floor(c.get<Clock>(Clock).now().getTime() / 1000);
      await c.get<RateLimitStore>(RateLimitStore).purge(now - RATE_LIMIT_WINDOW_SECONDS);
    },
  },
  {
    name: 'purge-expired-stories',
    everyMs: 10 * 60_000,
    async run(c) {
      return c.get<StoryService>(TYPES.StoryService).purgeExpired();
    },
  },
  {
    name: 'auto-delete-messages',
    everyMs: 60_000,
    async run(c) {
      await c.get<PrivateMessageService>(TYPES.PrivateMessageService).deleteExpired();
      await c.get<MessageGroupService>(TYPES.MessageGroupService).deleteExpired();
      await c.get<TypingService>(TYPES.TypingService).purge();
    },
  },
];

export function startJobs(container: Container, logger: Logger): () => void {
  const timers = JOBS.map((job) => {
    const timer = setInterval(() => {
      job.run(container).catch((err) => logger.error({ err, job: job.name }, 'periodic job failed'));
    }, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach(clearInterval);
}
