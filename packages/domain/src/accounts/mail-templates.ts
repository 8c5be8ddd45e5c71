import type { MailMessage } from './ports.js';

/**
 * The account mails, each as plain text and HTML. Both carry the same words; the HTML escapes every
 * value that comes from a user or a URL.
 */

interface Recipient {
  username: string;
  email: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Paragraphs, with optional highlighted lines (a code, a link) between them. */
type Block = { p: string } | { code: string } | { link: string };

function compose(to: Recipient, subject: string, blocks: Block[]): MailMessage {
  const text = blocks.map((b) => ('p' in b ? b.p : 'code' in b ? b.code : b.link)).join('\n\n');
  const body = blocks
    .map((b) => {
      if ('p' in b) return `<p>${escapeHtml(b.p)}</p>`;
      if ('code' in b) return `<p style="font-family:monospace;font-size:16px;letter-spacing:1px">${escapeHtml(b.code)}</p>`;
      return `<p><a href="${escapeHtml(b.link)}">${escapeHtml(b.link)}</a></p>`;
    })
    .join('\n');
  const html = `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n<body style="font-family:sans-serif;line-height:1.5">\n${body}\n</body></html>\n`;
  return { to: to.email, subject, text: `${text}\n`, html };
}

export function passwordResetMail(to: Recipient, code: string, ttlMinutes: number, instance: string): MailMessage {
  return compose(to, `${instance}: password reset`, [
    { p: `Hello ${to.username},` },
    { p: 'Someone asked to reset the password of your account. If it was you, use this code:' },
    { code },
    { p: `It works once, within ${ttlMinutes} minutes. If it was not you, ignore this message.` },
  ]);
}

export function deletionConfirmationMail(to: Recipient, link: string, ttlHours: number, instance: string): MailMessage {
  return compose(to, `${instance}: confirm the deletion of your account`, [
    { p: `Hello ${to.username},` },
    { p: 'You asked to delete your account and everything you published. Open this link to confirm:' },
    { link },
    {
      p: `The link works once, within ${ttlHours} hours. Deletion cannot be undone. If you did not ask for it, ignore this message and consider changing your password.`,
    },
  ]);
}

export function twoFactorDisabledMail(to: Recipient, at: string, instance: string): MailMessage {
  return compose(to, `${instance}: two-factor authentication turned off`, [
    { p: `Hello ${to.username},` },
    { p: `Two-factor authentication was turned off for your account at ${at} UTC. Signing in now needs only your password.` },
    { p: 'If you did not do this, change your password right away and turn two-factor authentication on again.' },
  ]);
}

/** Two-factor reset by the instance's administrators (the admin panel, docs/decisions/0105). */
export function twoFactorResetMail(to: Recipient, at: string, instance: string): MailMessage {
  return compose(to, `${instance}: two-factor authentication reset by an administrator`, [
    { p: `Hello ${to.username},` },
    {
      p: `An administrator of ${instance} turned two-factor authentication off for your account at ${at} UTC, and your recovery codes no longer work. Signing in now needs only your password.`,
    },
    { p: 'Turn two-factor authentication on again in your settings. If you did not ask for this, change your password right away.' },
  ]);
}

/** A copy of a notification, for users who turned `notifications_email` on. */
export function notificationMail(to: Recipient, text: string, instance: string): MailMessage {
  return compose(to, `${instance}: ${text}`, [
    { p: `Hello ${to.username},` },
    { p: text },
    { p: 'You receive these e-mails because e-mail notifications are on in your preferences; turn them off there.' },
  ]);
}

export function emailConfirmationMail(to: Recipient, link: string, ttlHours: number, instance: string): MailMessage {
  return compose(to, `${instance}: confirm your e-mail address`, [
    { p: `Hello ${to.username},` },
    { p: `An account was registered on ${instance} with this address. Open this link to confirm it:` },
    { link },
    { p: `The link works once, within ${ttlHours} hours; the app can send a new one. If you did not register, ignore this message.` },
  ]);
}

export function registrationApprovedMail(to: Recipient, instance: string): MailMessage {
  return compose(to, `${instance}: your registration is approved`, [
    { p: `Hello ${to.username},` },
    { p: `Your registration on ${instance} was approved: you can sign in now with your username and password.` },
  ]);
}

export function registrationRejectedMail(to: Recipient, reason: string, instance: string): MailMessage {
  return compose(to, `${instance}: your registration was not accepted`, [
    { p: `Hello ${to.username},` },
    { p: `Your registration on ${instance} was not accepted, and the account has been deleted.` },
    ...(reason ? [{ p: `Reason given: ${reason}` }] : []),
  ]);
}
