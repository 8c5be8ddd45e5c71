import { describe, expect, it } from 'vitest';
import { ManualClock } from '../shared/clock.js';
import { MAIL_RETRY_DELAYS_SECONDS, MailDeliveryService } from './mail-outbox.js';
import type { Mailer, MailMessage } from './ports.js';
import { InMemoryMailOutbox, RecordingDeliveryLog } from './testing/index.js';

class FlakyMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failures = 0;
  async send(message: MailMessage) {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('421 service not available');
    }
    this.sent.push(message);
  }
}

function setup() {
  const outbox = new InMemoryMailOutbox();
  const mailer = new FlakyMailer();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const log = new RecordingDeliveryLog();
  return { outbox, mailer, clock, log, delivery: new MailDeliveryService(outbox, mailer, clock, log) };
}

const message = { to: 'a@example.test', subject: 'Hello', text: 'text', html: '<p>text</p>' };

describe('MailDeliveryService', () => {
  it('keeps a mail the server refused and sends it when the job retries after the backoff', async () => {
    const { outbox, mailer, clock, log, delivery } = setup();
    mailer.failures = 1;
    const id = await delivery.queue(7, message);
    delivery.sendSoon([id]);
    await delivery.idle();
    expect(mailer.sent).toHaveLength(0);
    expect(await outbox.find(id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: '421 service not available',
      next_attempt_at: '2026-05-01 00:01:00',
    });
    expect(log.lines).toEqual([{ outcome: 'failed', id, error: '421 service not available', retryAt: '2026-05-01 00:01:00' }]);
    // Not due yet.
    expect(await delivery.deliverDue()).toEqual({ sent: 0, failed: 0 });
    clock.advance(60_000);
    expect(await delivery.deliverDue()).toEqual({ sent: 1, failed: 0 });
    expect(mailer.sent).toEqual([message]);
    expect(await outbox.find(id)).toMatchObject({ status: 'sent', sent_at: '2026-05-01 00:01:00' });
    expect(await delivery.deliverDue()).toEqual({ sent: 0, failed: 0 });
  });

  it('gives up after the last retry, and says so', async () => {
    const { outbox, mailer, clock, log, delivery } = setup();
    mailer.failures = 100;
    const id = await delivery.queue(null, message);
    for (let i = 0; i <= MAIL_RETRY_DELAYS_SECONDS.length; i++) {
      await delivery.deliverDue();
      clock.advance(2 * 86_400_000);
    }
    expect(await outbox.find(id)).toMatchObject({ status: 'failed', attempts: MAIL_RETRY_DELAYS_SECONDS.length + 1 });
    expect(log.lines.at(-1)).toMatchObject({ outcome: 'failed', retryAt: null });
    expect(await delivery.deliverDue()).toEqual({ sent: 0, failed: 0 });
  });

  it('hands an entry to one deliverer at a time: a held lease is skipped until it runs out', async () => {
    const { outbox, clock } = setup();
    const id = await outbox.add({ user_id: null, message, created_at: '2026-05-01 00:00:00' });
    expect(await outbox.claim(id, '2026-05-01 00:00:00', '2026-05-01 00:03:00')).not.toBeNull();
    expect(await outbox.claim(id, '2026-05-01 00:01:00', '2026-05-01 00:04:00')).toBeNull();
    expect(await outbox.due('2026-05-01 00:01:00', 10)).toEqual([]);
    expect(await outbox.due('2026-05-01 00:03:01', 10)).toEqual([id]);
    clock.advance(0);
  });
});
