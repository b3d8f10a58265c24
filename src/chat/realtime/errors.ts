import { AppError } from '../../platform/http/app-error.js';

export const realtimeErrors = {
  eventsExpired: (after: number, lastSeq: number) =>
    new AppError(410, 'events_expired', `Events after seq ${after} are past the retention window; refetch the state you need and continue from seq ${lastSeq}.`),
};
