export * from './security/bcrypt-password-hasher.js';
export * from './security/node-crypto-secret-tokens.js';
export * from './security/otplib-totp.js';
export * from './mail/nodemailer-mailer.js';
export * from './push/logging-push-sender.js';
export * from './webrtc/ice-servers.js';
