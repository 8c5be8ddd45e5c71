import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The decoded text/plain and text/html parts. */
  text: string;
  html: string;
}

/** Quoted-printable as nodemailer writes long lines: soft breaks and =XX bytes (UTF-8). */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function part(raw: string, type: 'text/plain' | 'text/html'): string {
  const start = raw.indexOf(`Content-Type: ${type}`);
  if (start < 0) return '';
  const headersEnd = raw.indexOf('\r\n\r\n', start);
  const headers = raw.slice(start, headersEnd);
  const next = raw.indexOf('\r\n--', headersEnd);
  const body = raw.slice(headersEnd + 4, next < 0 ? undefined : next);
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) return decodeQuotedPrintable(body);
  if (/Content-Transfer-Encoding: base64/i.test(headers)) return Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
  return body;
}

/**
 * An SMTP server on 127.0.0.1 for the tests: it keeps what it receives, and refuses every message
 * while `refusing` is set (as a server that is down for maintenance answers).
 */
export class LoopbackSmtp {
  readonly received: ReceivedMail[] = [];
  refusing = false;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (this.refusing) {
          callback(Object.assign(new Error('Service not available, try later'), { responseCode: 421 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
        this.received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
          text: part(raw, 'text/plain'),
          html: part(raw, 'text/html'),
        });
        callback();
      });
    },
  });
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The latest mail to this address, waiting up to `ms` for it. */
  async mailTo(address: string, ms = 5000): Promise<ReceivedMail> {
    for (let waited = 0; waited <= ms; waited += 20) {
      const mail = this.received.findLast((m) => m.to.includes(address));
      if (mail) return mail;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no mail reached ${address} within ${ms} ms`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
