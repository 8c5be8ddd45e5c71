import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '@plaza/domain/accounts';

/** nodemailer reads options from the URL's query; an operator's own values win. */
function withTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [key, ms] of [
    ['connectionTimeout', '20000'],
    ['greetingTimeout', '20000'],
    ['socketTimeout', '60000'],
  ]) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, ms);
  }
  return url.toString();
}

/** Plain text, plus an HTML alternative when the message has one (multipart/alternative). */
function envelope(from: string, m: MailMessage) {
  return { from, to: m.to, subject: m.subject, text: m.text, ...(m.html ? { html: m.html } : {}) };
}

interface MailLog {
  info(obj: object, msg: string): void;
}

/** Sends through an SMTP server given as `smtp://user:pass@host:port` (or smtps://). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    // Bounded waits: a dead server fails an attempt (retried by the outbox job) instead of holding it.
    this.transport = nodemailer.createTransport(withTimeouts(smtpUrl));
  }
  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail(envelope(this.from, message));
  }
  close(): void {
    this.transport.close();
  }
}

/**
 * The default when no SMTP server is configured: each message becomes an RFC 822 `.eml` file under
 * `<dir>`, which an operator can open or hand to a mail client, and one log line says so.
 */
export class FileMailer implements Mailer {
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log: MailLog,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail(envelope(this.from, message));
    await mkdir(this.dir, { recursive: true });
    const file = join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`);
    await writeFile(file, info.message as Buffer, { mode: 0o600 });
    // The recipient is logged, never the body: it may hold a reset token.
    this.log.info({ to: message.to, subject: message.subject, file }, 'mail written to file');
  }
}
