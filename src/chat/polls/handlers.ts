import { callerOf } from '../base/context.js';
import { created, ok } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { PollService } from './service.js';

export function pollHandlers(polls: PollService): ChatFeatureHandlers<'createPoll' | 'getPoll' | 'votePoll' | 'closePoll'> {
  return {
    async createPoll({ params, body }, ctx) {
      const poll = await polls.create(callerOf(ctx), params.roomId, body);
      return created(ctx, poll, `/api/v1/polls/${poll.id}`);
    },
    async getPoll({ params }, ctx) {
      return ok(ctx, await polls.get(callerOf(ctx), params.pollId));
    },
    async votePoll({ params, body }, ctx) {
      return ok(ctx, await polls.vote(callerOf(ctx), params.pollId, body.optionIds));
    },
    async closePoll({ params }, ctx) {
      return ok(ctx, await polls.close(callerOf(ctx), params.pollId));
    },
  };
}
