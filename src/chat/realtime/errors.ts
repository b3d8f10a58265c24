import { chatError } from '../base/errors.js';

export const realtimeErrors = {
  eventsExpired: (after: number, lastSeq: number) =>
    chatError(
      410,
      'events_expired',
      `Events after seq ${after} are past the retention window; refetch the state you need and continue from seq ${lastSeq}.`,
    ),
};
