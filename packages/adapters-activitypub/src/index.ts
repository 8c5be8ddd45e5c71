/**
 * ActivityPub federation on Fedify (docs/decisions/0051): the SSRF-guarded client, the document
 * loader, Fedify's store and queue on our database, the public documents and inboxes, the outbox
 * queue and its worker, and the remote directory behind fediverse.php.
 */
export const ACTIVITY_STREAMS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export * from './ssrf.js';
export * from './urls.js';
export * from './document-loader.js';
export * from './fedify-store.js';
export * from './keys.js';
export * from './mapping.js';
export * from './outbox.js';
export * from './directory.js';
export * from './federation.js';
export * from './comment-note.js';
export * from './instance-actor.js';
export * from './mentions.js';
export * from './negotiation.js';
export * from './fetchable.js';
export * from './signed-fetch.js';
export * from './inbound.js';
export * from './account-lifecycle.js';
export * from './share-listener.js';
export * from './remote-engagement-outbox.js';
export * from './reply-note.js';
