// Refusals of the poll operations; the codes are listed in docs/errors.md.
import { chatError, chatErrors } from '../base/errors.js';
import { roomNotFound } from '../base/membership.js';

export const pollErrors = {
  /** An unknown poll and a poll of a room the caller is not in answer alike, so poll ids are not confirmed to outsiders. */
  notFound: () => roomNotFound(),
  closed: () => chatErrors.conflict('poll_closed', 'The poll is closed; it accepts no more votes.'),
  notEditable: () => chatErrors.conflict('message_not_editable', 'A POLL message cannot be edited: its text is the poll question.'),
  closeForbidden: () => chatErrors.forbidden('Only the creator of the poll or an owner or admin of the room may close it.'),
  /** Entries of a list by their place in it, each with its reason. */
  atIndexes: (location: string, problems: Array<{ index: number; message: string }>) => {
    const details = problems.map((p) => ({ location: `${location}[${p.index}]`, message: p.message }));
    return chatError(
      400,
      'validation_failed',
      `The request is invalid: ${details.map((d) => `${d.location} ${d.message}`).join('; ')}`,
      details,
    );
  },
};
