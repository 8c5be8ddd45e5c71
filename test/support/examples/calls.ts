import type { Examples } from '../operation-fixtures.js';

/** The calls context's examples (calls.php). */
export const EXAMPLES: Examples = {
  // calls.php (`send` adds the mobile-app header).
  'POST calls.php action=initiate': (f) => ({
    body: { recipient_id: f.other.id, call_type: 'audio', offer: 'v=0' },
    aliases: ['recipient_id', 'group_id'],
  }),
  'POST calls.php action=initiate_talk': (f) => ({
    body: { group_id: f.group, room_token: 'room1', room_url: 'https://talk.example.org/call/room1' },
  }),
  'POST calls.php action=answer': (f) => ({ body: { call_id: f.calls.incoming, answer: 'v=0' }, aliases: ['answer', 'answer_sdp'] }),
  'POST calls.php action=join': (f) => ({ body: { call_id: f.calls.group, offer: 'v=0' } }),
  'POST calls.php action=peer_offer': (f) => ({
    body: { call_id: f.calls.group, to_user_id: f.other.id, offer: 'v=0' },
    aliases: ['offer', 'offer_sdp'],
  }),
  'POST calls.php action=peer_answer': (f) => ({
    body: { call_id: f.calls.group, to_user_id: f.other.id, answer: 'v=0' },
    aliases: ['answer', 'answer_sdp'],
  }),
  'POST calls.php action=ice_candidate': (f) => ({
    body: { call_id: f.calls.outgoing, candidate: 'candidate:1 1 udp 1 192.0.2.1 5000 typ host', to_user_id: f.other.id },
  }),
  'POST calls.php action=ice_restart': (f) => ({
    body: { call_id: f.calls.outgoing, offer: 'v=0', to_user_id: f.other.id },
    aliases: ['offer', 'offer_sdp'],
  }),
  'POST calls.php action=reject': (f) => ({ body: { call_id: f.calls.incoming } }),
  'POST calls.php action=leave': (f) => ({ body: { call_id: f.calls.group } }),
  'POST calls.php action=end': (f) => ({ body: { call_id: f.calls.outgoing } }),
  'GET calls.php action=poll': (f) => ({ query: { call_id: f.calls.outgoing } }),
};
