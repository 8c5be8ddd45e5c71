import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '@plaza/domain/accounts';

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
    this.transport = nodemailer.createTransport(smtpUrl);
  }
  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
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
    const info = await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
    await mkdir(this.dir, { recursive: true });
    const file = join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`);
    await writeFile(file, info.message as Buffer, { mode: 0o600 });
    // The recipient is logged, never the body: it may hold a reset token.
    this.log.info({ to: message.to, subject: message.subject, file }, 'mail written to file');
  }
}
