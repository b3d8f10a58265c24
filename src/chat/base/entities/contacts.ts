// The tables chat/contacts owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const ContactRequestEntity = defineEntity({
  name: 'ContactRequest',
  tableName: 'contact_requests',
  properties: {
    id: p.uuid().primary(),
    requesterId: reference(p.uuid().fieldName('requester_id'), 'Account', 'contact_requests_requester_id_fkey'),
    inviteeId: reference(p.uuid().fieldName('invitee_id'), 'Account', 'contact_requests_invitee_id_fkey'),
    status: p.text(),
    createdAt: p.datetime().fieldName('created_at'),
    acceptedAt: p.datetime().fieldName('accepted_at').nullable(),
    endedAt: p.datetime().fieldName('ended_at').nullable(),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'contact_requests_incoming',
      expression:
        "CREATE INDEX contact_requests_incoming ON contact_requests USING btree (invitee_id, created_at DESC, id DESC) WHERE (status = 'PENDING'::text)",
    },
    {
      name: 'contact_requests_outgoing',
      expression:
        "CREATE INDEX contact_requests_outgoing ON contact_requests USING btree (requester_id, created_at DESC, id DESC) WHERE (status = 'PENDING'::text)",
    },
    // one live request per direction; ended ones (DECLINED, CANCELLED, REMOVED) stay as history
    {
      name: 'contact_requests_live',
      expression:
        "CREATE UNIQUE INDEX contact_requests_live ON contact_requests USING btree (requester_id, invitee_id) WHERE (status = ANY (ARRAY['PENDING'::text, 'ACCEPTED'::text]))",
    },
  ],
});
export type ContactRequest = InferEntity<typeof ContactRequestEntity>;
