import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { CallRepository, CallService, TalkInviteService } from '@plaza/domain/calls';
import { MessageGroupRepository } from '@plaza/domain/messaging';
import { PushSender } from '@plaza/domain/notifications';
import {
  callsScript,
  answerBody,
  IceCandidateInput,
  iceCandidateBody,
  iceRestartBody,
  initiateBody,
  joinBody,
  peerOfferBody,
  pollQuery,
  talkInviteBody,
} from '@plaza/adapters-http/scripts/calls';
import { CALLS_MIGRATIONS, SqlCallRepository, SqlCallsAccountData } from '@plaza/adapters-mysql/calls';
import { featureModule, useCases } from '../wiring/feature-module.js';
import { ConfigToken, DatabaseToken } from '../wiring/tokens.js';
import { Platform } from './platform.module.js';
import { z } from 'zod';
import { ACTOR, arg, id, pageRequest } from '../library-input.js';

export const Calls = {
  CallService: token<CallService>('calls.CallService'),
  TalkInviteService: token<TalkInviteService>('calls.TalkInviteService'),
};

/**
 * What calls offers outside the container (docs/decisions/0130): `createPlaza().calls`,
 * call signalling, each method checking its input with its HTTP operation's schema (0113).
 */
const face = {
  name: 'calls',
  library: {
    calls: useCases(Calls.CallService, {
      initiate: [ACTOR, arg('input', initiateBody)],
      answer: [ACTOR, id('callId'), arg('answer', answerBody.shape.answer.nullable())],
      join: [ACTOR, id('callId'), arg('offer', joinBody.shape.offer)],
      peerSignal: [
        ACTOR,
        id('callId'),
        arg(
          'input',
          z.object({
            to_user_id: peerOfferBody.shape.to_user_id,
            kind: z.enum(['offer', 'answer']),
            sdp: peerOfferBody.shape.offer.nullable(),
          }),
        ),
      ],
      iceCandidate: [
        ACTOR,
        id('callId'),
        arg('input', z.object({ candidate: IceCandidateInput.options[1], to_user_id: iceCandidateBody.shape.to_user_id })),
      ],
      iceRestart: [
        ACTOR,
        id('callId'),
        arg('input', z.object({ offer: iceRestartBody.shape.offer.nullable(), to_user_id: iceRestartBody.shape.to_user_id })),
      ],
      reject: [ACTOR, id('callId')],
      leave: [ACTOR, id('callId')],
      end: [ACTOR, id('callId')],
      poll: [ACTOR, id('callId'), arg('lastPoll', pollQuery.shape.last_poll.nullable())],
      history: [ACTOR, pageRequest],
      missOverdue: [],
    }),
    talk: useCases(Calls.TalkInviteService, { invite: [ACTOR, arg('input', talkInviteBody)] }),
  },
  ports: {
    // calls
    CallRepository: { suites: ['calls/testing/calls.contract.ts'], via: 'calls' },
  },
} as const;

/** One-to-one and group call signalling (calls.php); group calls use messaging groups. */
export const callsModule = featureModule(face, (w) => {
  w.accountData([DatabaseToken], ({ db }) => new SqlCallsAccountData(db));
  w.migrations(CALLS_MIGRATIONS);
  w.bind(CallRepository, [DatabaseToken], ({ db, dialect }) => new SqlCallRepository(db, dialect));
  w.construct(Calls.CallService, CallService, [CallRepository, UserRepository, MessageGroupRepository, PushSender, Clock, UnitOfWork]);
  w.bind(
    Calls.TalkInviteService,
    { groups: MessageGroupRepository, users: UserRepository, push: PushSender, clock: Clock, config: ConfigToken },
    ({ groups, users, push, clock, config }) =>
      new TalkInviteService(groups, users, push, clock, { conferenceServerUrl: config.talkServerUrl }),
  );
  w.script(
    { calls: Calls.CallService, talk: Calls.TalkInviteService, p: Platform.Presenters, config: ConfigToken },
    ({ calls, talk, p, config }) => callsScript(calls, talk, p, { mobileAppMarker: config.mobileAppMarker }),
  );
  w.job({ name: 'missed-calls', everyMs: 15_000 }, [Calls.CallService], (calls) => () => calls.missOverdue());
});
