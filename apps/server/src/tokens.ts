/** Container tokens for what the domain does not already name: infrastructure and services. */
export const TYPES = {
  Config: Symbol.for('plaza.Config'),
  Logger: Symbol.for('plaza.Logger'),
  Database: Symbol.for('plaza.Database'),
  AuthService: Symbol.for('plaza.AuthService'),
  ProfileService: Symbol.for('plaza.ProfileService'),
  NotificationService: Symbol.for('plaza.NotificationService'),
  RateLimiter: Symbol.for('plaza.RateLimiter'),
  PublicSettings: Symbol.for('plaza.PublicSettings'),
  Health: Symbol.for('plaza.Health'),
  Totp: Symbol.for('plaza.Totp'),
} as const;
