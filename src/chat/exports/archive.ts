// The archive of an export: one JSON Lines file per kind of the account's data, written from keyset pages, the
// account's settings as one JSON file, and manifest.json listing every other file with its rows, size and SHA-256.
import { createHash } from 'node:crypto';
import type { Runner } from '../../platform/db/typed.js';
import { attachmentViews, type StoredAttachment } from '../base/attachment-views.js';
import { formattingViews, type StoredFormatting } from '../base/formatting.js';
import { draftsPage, labelsOf, messagesPage, profileOf, reactionsPage, savedPage } from './data-queries.js';
import { ZipWriter } from './zip.js';
import { receiptSetting } from '../receipts/queries.js';

/** Rows read per statement: a page is turned into bytes and compressed before the next is read. */
export const exportPageSize = 500;

export interface ManifestFile {
  name: string;
  rows: number;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: 1;
  exportId: string;
  account: { id: string };
  createdAt: string;
  files: ManifestFile[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Writes one JSONL file from pages read after the last row's key until a page comes back short. */
async function jsonl<R, K>(
  zip: ZipWriter,
  name: string,
  page: (after: K | null) => Promise<R[]>,
  keyOf: (row: R) => K,
  line: (row: R) => unknown,
): Promise<ManifestFile> {
  const file = zip.file(name);
  const hash = createHash('sha256');
  let count = 0;
  let after: K | null = null;
  for (;;) {
    const batch = await page(after);
    if (batch.length > 0) {
      const bytes = Buffer.from(batch.map((row) => `${JSON.stringify(line(row))}\n`).join(''), 'utf8');
      hash.update(bytes);
      file.write(bytes);
      count += batch.length;
      after = keyOf(batch[batch.length - 1]!);
    }
    if (batch.length < exportPageSize) break;
  }
  const { size } = file.end();
  return { name, rows: count, size, sha256: hash.digest('hex') };
}

function whole(zip: ZipWriter, name: string, value: unknown, rowCount: number): ManifestFile {
  const bytes = Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
  zip.add(name, bytes);
  return { name, rows: rowCount, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

function messageFile(zip: ZipWriter, db: Runner, accountId: string) {
  return jsonl(
    zip,
    'messages.jsonl',
    (after: { at: Date; id: string } | null) => messagesPage(db, accountId, after, exportPageSize),
    (m) => ({ at: m.created_at, id: m.id }),
    (m) => ({
      id: m.id,
      roomId: m.room_id,
      roomName: m.room_name,
      type: m.type,
      createdAt: iso(m.created_at),
      editedAt: iso(m.edited_at),
      recalledAt: iso(m.recalled_at),
      threadRootId: m.thread_root_id,
      // A recalled message's text is gone for everyone, its sender included, as the API shows it.
      text: m.recalled_at ? null : m.text,
      formatting: m.recalled_at ? [] : formattingViews((m.formatting as StoredFormatting[] | null) ?? []),
      attachments: attachmentViews(m.attachments as StoredAttachment[] | null),
    }),
  );
}

/** The whole archive of the account's data, as the zip's bytes in order, and its manifest. */
export async function buildArchive(
  db: Runner,
  job: { exportId: string; accountId: string; createdAt: Date },
): Promise<{ chunks: Buffer[]; manifest: Manifest }> {
  const { accountId } = job;
  const zip = new ZipWriter(job.createdAt);
  const files: ManifestFile[] = [await messageFile(zip, db, accountId)];
  files.push(
    await jsonl(
      zip,
      'reactions.jsonl',
      (after: { messageId: string; emoji: string } | null) => reactionsPage(db, accountId, after, exportPageSize),
      (r) => ({ messageId: r.message_id, emoji: r.emoji }),
      (r) => ({ messageId: r.message_id, roomId: r.room_id, emoji: r.emoji, createdAt: iso(r.created_at) }),
    ),
  );
  files.push(
    await jsonl(
      zip,
      'saved.jsonl',
      (after: string | null) => savedPage(db, accountId, after, exportPageSize),
      (s) => s.id,
      (s) => ({
        savedId: s.id,
        roomId: s.room_id,
        messageId: s.message_id,
        note: s.note,
        savedAt: iso(s.saved_at),
        updatedAt: iso(s.updated_at),
      }),
    ),
  );
  files.push(
    await jsonl(
      zip,
      'drafts.jsonl',
      (after: string | null) => draftsPage(db, accountId, after, exportPageSize),
      (d) => d.room_id,
      (d) => ({ roomId: d.room_id, text: d.text, updatedAt: iso(d.updated_at) }),
    ),
  );
  files.push(whole(zip, 'settings.json', await settingsOf(db, accountId), 1));
  const manifest: Manifest = {
    format: 1,
    exportId: job.exportId,
    account: { id: accountId },
    createdAt: job.createdAt.toISOString(),
    files,
  };
  zip.add('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'));
  return { chunks: zip.finish(), manifest };
}

/**
 * What the account has set for itself: its profile, its labels and whether it shares read receipts (the other
 * settings are not stored per account).
 */
async function settingsOf(db: Runner, accountId: string) {
  const [profile, labels, receipts] = await Promise.all([profileOf(db, accountId), labelsOf(db, accountId), receiptSetting(db, accountId)]);
  return {
    profile: profile && {
      id: profile.id,
      displayName: profile.display_name,
      username: profile.username,
      email: profile.email,
      avatarUrl: profile.avatar_url,
      team: profile.team,
      department: profile.department,
      role: profile.role,
      tags: profile.tags,
      createdAt: iso(profile.created_at),
    },
    labels: labels.map((l) => ({ id: l.id, name: l.name, color: l.color, createdAt: iso(l.created_at), roomIds: l.room_ids ?? [] })),
    shareReadReceipts: receipts?.share ?? true,
  };
}
