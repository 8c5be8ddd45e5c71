/**
 * ActivityPub federation (WebFinger, actor, outbox, inbox, HTTP Signatures, delivery) lands here with
 * its own issue; the package exists now so the workspace layout and dependency rule are in place.
 */
export const ACTIVITY_STREAMS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
