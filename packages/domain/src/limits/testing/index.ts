export * from './rate-limit-store.contract.js';
