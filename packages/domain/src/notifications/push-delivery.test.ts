import { describe, expect, it } from 'vitest';
import { ManualClock } from '../shared/clock.js';
import { InMemoryPushOutbox, ScriptedPushProvider } from './testing/in-memory-push-outbox.js';
import { PUSH_MAX_ATTEMPTS, PushDeliveryService } from './push-delivery.js';

const msg = { title: 't', body: 'b', data: { type: 'message' } };

function setup() {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const onesignal = new ScriptedPushProvider('onesignal');
  const ntfy = new ScriptedPushProvider('ntfy');
  const outbox = new InMemoryPushOutbox();
  const warnings: string[] = [];
  const delivery = new PushDeliveryService([onesignal, ntfy], outbox, clock, { warn: (_d, m) => warnings.push(m) });
  return { clock, onesignal, ntfy, outbox, warnings, delivery };
}

describe('PushDeliveryService', () => {
  it('sends through every provider, or the ones a message names', async () => {
    const { delivery, onesignal, ntfy } = setup();
    await delivery.send(5, msg);
    await delivery.send(5, { ...msg, providers: ['ntfy'] });
    expect([onesignal.delivered.length, ntfy.delivered.length]).toEqual([1, 2]);
    expect(delivery.configured()).toEqual(['onesignal', 'ntfy']);
  });

  it('logs and queues a failed push without failing, then retries it when due', async () => {
    const { delivery, ntfy, onesignal, outbox, clock, warnings } = setup();
    ntfy.failing = 'HTTP 502';
    await delivery.send(5, msg);
    expect(onesignal.delivered).toHaveLength(1);
    expect(warnings).toEqual(['push failed; queued for retry']);
    expect(outbox.rows).toEqual([
      expect.objectContaining({
        user_id: 5,
        provider: 'ntfy',
        attempts: 1,
        next_attempt_at: '2026-03-01 10:00:30',
        last_error: 'HTTP 502',
      }),
    ]);
    expect(await delivery.retryDue()).toEqual({ delivered: 0, failed: 0, dropped: 0 }); // not due yet
    clock.advance(30_000);
    expect(await delivery.retryDue()).toEqual({ delivered: 0, failed: 1, dropped: 0 });
    expect(outbox.rows[0]).toMatchObject({ attempts: 2, next_attempt_at: '2026-03-01 10:01:30' });
    ntfy.failing = null;
    clock.advance(60_000);
    expect(await delivery.retryDue()).toEqual({ delivered: 1, failed: 0, dropped: 0 });
    expect(ntfy.delivered).toEqual([{ userId: 5, message: msg }]);
    expect(outbox.rows).toEqual([]);
  });

  it('drops a push after its last attempt', async () => {
    const { delivery, ntfy, outbox, clock } = setup();
    ntfy.failing = 'down';
    await delivery.send(5, { ...msg, providers: ['ntfy'] });
    let dropped = 0;
    for (let i = 0; i < PUSH_MAX_ATTEMPTS + 2; i++) {
      clock.advance(3 * 3600_000);
      dropped += (await delivery.retryDue()).dropped;
    }
    expect(dropped).toBe(1);
    expect(outbox.rows).toEqual([]);
  });

  it('never fails the sender, even when the outbox cannot take the push', async () => {
    const { onesignal, ntfy, clock } = setup();
    onesignal.failing = 'x';
    const broken = new InMemoryPushOutbox();
    broken.add = async () => {
      throw new Error('database down');
    };
    const warnings: string[] = [];
    await new PushDeliveryService([onesignal, ntfy], broken, clock, { warn: (_d, m) => warnings.push(m) }).send(1, msg);
    expect(warnings).toEqual(['push failed; queued for retry', 'push could not be queued for retry']);
    expect(ntfy.delivered).toHaveLength(1);
  });
});
