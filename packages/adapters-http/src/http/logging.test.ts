import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { accessLogger, createLogger } from './logging.js';

/** A logger writing into an array of parsed-later lines, with the time fixed so that lines compare. */
function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk).replace(/"time":\d+/, '"time":0'));
      done();
    },
  });
  return { logger: createLogger({ destination }), lines };
}

describe('accessLogger', () => {
  it('writes the access line byte for byte as the redacting logger does', () => {
    const { logger, lines } = capture();
    const line = {
      req_id: 'abc-1',
      method: 'GET',
      url: '/api/v1/export.php?token=[redacted]&q="quoted"\\',
      status: 200,
      ms: 1.234567,
      user_id: null,
      ip: '127.0.0.1',
      user_agent: 'Mozilla/5.0 "x" \\ é\u0001',
    };
    logger.info(line, 'request');
    accessLogger(logger).info(line, 'request');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(lines[0]);
  });

  it('leaves the redaction of every other line in place', () => {
    const { logger, lines } = capture();
    accessLogger(logger);
    logger.info({ body: { password: 'secret' }, token: 't' }, 'other');
    expect(lines[0]).not.toContain('secret');
    expect(JSON.parse(lines[0]).token).toBe('[redacted]');
  });
});
