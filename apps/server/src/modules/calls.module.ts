import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { CallRepository, CallService, TalkInviteService } from '@plaza/domain/calls';
import { MessageGroupRepository } from '@plaza/domain/messaging';
import { PushSender } from '@plaza/domain/notifications';
import { callsScript } from '@plaza/adapters-http/scripts/calls';
import { CALLS_MIGRATIONS, SqlCallRepository, SqlCallsAccountData } from '@plaza/adapters-mysql/calls';
import { featureModule } from '../wiring/feature-module.js';
import { ConfigToken, DatabaseToken } from '../wiring/tokens.js';
import { Platform } from './platform.module.js';

export const Calls = {
  CallService: token<CallService>('calls.CallService'),
  TalkInviteService: token<TalkInviteService>('calls.TalkInviteService'),
};

/** One-to-one and group call signalling (calls.php); group calls use messaging groups. */
export const callsModule = featureModule((w) => {
  w.accountData([DatabaseToken], ({ db }) => new SqlCallsAccountData(db));
  w.migrations(CALLS_MIGRATIONS);
  w.bind(CallRepository, [DatabaseToken], ({ db, dialect }) => new SqlCallRepository(db, dialect));
  w.bind(
    Calls.CallService,
    [CallRepository, UserRepository, MessageGroupRepository, PushSender, Clock, UnitOfWork],
    (calls, users, groups, push, clock, uow) => new CallService(calls, users, groups, push, clock, uow),
  );
  w.bind(
    Calls.TalkInviteService,
    [MessageGroupRepository, UserRepository, PushSender, Clock, ConfigToken],
    (groups, users, push, clock, config) =>
      new TalkInviteService(groups, users, push, clock, { conferenceServerUrl: config.talkServerUrl }),
  );
  w.script([Calls.CallService, Calls.TalkInviteService, Platform.Presenters, ConfigToken], (calls, talk, p, config) =>
    callsScript(calls, talk, p, { mobileAppMarker: config.mobileAppMarker }),
  );
  w.job({ name: 'missed-calls', everyMs: 15_000 }, [Calls.CallService], (calls) => () => calls.missOverdue());
});
