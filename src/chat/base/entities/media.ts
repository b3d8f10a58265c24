// The tables chat/media owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const UploadEntity = defineEntity({
  name: 'Upload',
  tableName: 'uploads',
  properties: {
    id: p.uuid().primary(),
    ownerId: reference(p.uuid().fieldName('owner_id'), 'Account', 'uploads_owner_id_fkey'),
    fileName: p.text().fieldName('file_name'),
    contentType: p.text().fieldName('content_type'),
    declaredSize: p.bigint('number').fieldName('declared_size'),
    size: p.bigint('number').nullable(),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    status: p.text(),
    tokenHash: p.blob().fieldName('token_hash'),
    expiresAt: p.datetime().fieldName('expires_at'),
    createdAt: p.datetime().fieldName('created_at'),
    completedAt: p.datetime().fieldName('completed_at').nullable(),
    messageId: p.uuid().fieldName('message_id').nullable(),
    attachedAt: p.datetime().fieldName('attached_at').nullable(),
    purgedAt: p.datetime().fieldName('purged_at').nullable(),
  },
  indexes: [
    { name: 'uploads_unattached_expiry', properties: ['expiresAt'], where: '(attached_at IS NULL)' },
    {
      name: 'uploads_attached_live',
      properties: ['messageId'],
      where: '((attached_at IS NOT NULL) AND (purged_at IS NULL))',
    },
  ],
  uniques: [{ name: 'uploads_token_hash_key', properties: ['tokenHash'] }],
  checks: [
    {
      name: 'uploads_status_check',
      expression: "((status = ANY (ARRAY['PENDING'::text, 'UPLOADING'::text, 'COMPLETE'::text])))",
    },
  ],
});
export type Upload = InferEntity<typeof UploadEntity>;
