// The table partner/storage owns, as the migrations create it; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const StorageFileEntity = defineEntity({
  name: 'StorageFile',
  tableName: 'storage_files',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'storage_files_workspace_id_fkey'),
    environment: p.text(),
    fileName: p.text().fieldName('file_name'),
    contentType: p.text().fieldName('content_type'),
    size: p.bigint('number'),
    sha256: p.text(),
    uploadedBy: reference(p.uuid().fieldName('uploaded_by'), 'ApiKey', 'storage_files_uploaded_by_fkey'),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
  },
  indexes: [
    {
      name: 'storage_files_list',
      expression: 'CREATE INDEX storage_files_list ON storage_files USING btree (workspace_id, environment, id DESC)',
    },
  ],
  checks: [
    {
      name: 'storage_files_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text, 'dev'::text])))",
    },
  ],
});
export type StorageFile = InferEntity<typeof StorageFileEntity>;
