// sendDocument, sendPhoto and getFile. A file reaches a message in one of three ways: a multipart file part (stored
// as an upload of the bot's account, through the chat's media store), the uploadId of a finished upload session of
// the bot's account (claimed as a chat message claims it), or the file_id of a file the bot can see (its facts are
// copied, as a forward copies them). A bot sees a file sent in a room it is a member of, and the files it sent.
import { AppError } from '../../../platform/http/app-error.js';
import { isUuid } from '../../../platform/ids.js';
import { sql, type Selectable } from 'kysely';
import { firstRow, type Runner } from '../../../platform/db/typed.js';
import { chatDb, type ChatTables } from '../../base/tables.js';
import { claimUploads } from '../../media/attachments.js';
import { discardDirectUpload, readHead, storeDirectUpload } from '../../media/direct-upload.js';
import { imageHeadBytes, imageSize, type ImageSize } from '../../media/image-size.js';
import type { MediaStore } from '../../../core/media/store.js';
import { typeAllowed, typeOfFileName } from '../../media/types.js';
import type { BotDeps } from '../deps.js';
import type { BotAttachment, TelegramMessage } from '../telegram.js';
import { roomOfChat } from './chats.js';
import type { BotPrincipal } from './context.js';
import { BotApiError, botApiErrors } from './errors.js';
import { fileIdOf, filePathOf, fileUniqueIdOf, uploadOfFileId } from './file-ids.js';
import { attachPrefix } from './forms.js';
import type { AttachFiles, BotMessages, SendInput } from './messages.js';

export type FileKind = 'document' | 'photo';

export type SendFileInput = Omit<SendInput, 'text'> & { caption?: string } & Partial<Record<FileKind, string>>;

/** A file the bot can see, with its size (set on every COMPLETE upload). */
export type VisibleFile = Pick<Selectable<ChatTables['uploads']>, 'id' | 'file_name' | 'content_type'> & { size: number };

const fileNotFound = () => botApiErrors.badRequest('file not found');
const maxFileName = 255;

// A file the bot can see: sent, not purged, and carried by a message that is not recalled, in a room the bot is a
// member of or sent by the bot's account.
const visibleFileQuery = (id: string, accountId: string) =>
  chatDb
    .selectFrom('uploads as u')
    .select(['u.id', 'u.file_name', 'u.content_type', 'u.size'])
    .where('u.id', '=', id)
    .where('u.status', '=', 'COMPLETE')
    .where('u.attached_at', 'is not', null)
    .where('u.purged_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('messages as m')
          .select(sql<number>`1`.as('one'))
          .where(sql<boolean>`m.attachments @> ${JSON.stringify([{ id }])}::jsonb`)
          .where('m.recalled_at', 'is', null)
          .where((inner) =>
            inner.or([
              inner('u.owner_id', '=', accountId),
              inner.exists(
                inner
                  .selectFrom('room_members as rm')
                  .select(sql<number>`1`.as('one'))
                  .whereRef('rm.room_id', '=', 'm.room_id')
                  .where('rm.account_id', '=', accountId),
              ),
            ]),
          ),
      ),
    );

export async function visibleFile(db: Runner, bot: BotPrincipal, fileId: string): Promise<VisibleFile | null> {
  const id = uploadOfFileId(fileId);
  if (id === null) return null;
  const row = await firstRow(db, visibleFileQuery(id, bot.accountId));
  return row ? { ...row, size: Number(row.size) } : null;
}

const octetStream = 'application/octet-stream';

/**
 * The part's content type without parameters; when it names none (or octet-stream, as libraries send every file),
 * the type of an image's header, then of the file name's extension, then octet-stream.
 */
function partType(file: File, fileName: string, image: ImageSize | null): string {
  const type = file.type.split(';')[0]!.trim().toLowerCase();
  if (type !== octetStream && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type)) return type;
  return image?.contentType ?? typeOfFileName(fileName) ?? octetStream;
}

function fileNameOf(file: File, kind: FileKind, image: ImageSize | null): string {
  const name = [...file.name]
    .filter((c) => c >= ' ' && c !== '\u007f')
    .join('')
    .trim()
    .slice(0, maxFileName);
  if (name !== '' && name !== 'blob') return name;
  return image ? `${kind}.${image.contentType.slice(6)}` : kind;
}

/** The claim errors of an uploadId, in the Bot API's words. */
function claimRefusal(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  if (err.code === 'upload_not_found') return fileNotFound();
  if (err.code === 'upload_incomplete') return botApiErrors.badRequest('the upload is not complete');
  if (err.code === 'upload_already_attached') return botApiErrors.badRequest('the upload was sent already; send it again by its file_id');
  return err;
}

export class BotFiles {
  constructor(
    private readonly deps: BotDeps,
    private readonly store: MediaStore,
    private readonly messages: BotMessages,
  ) {}

  async send(bot: BotPrincipal, kind: FileKind, input: SendFileInput, parts: Map<string, File>): Promise<TelegramMessage> {
    const named = input[kind];
    if (named === undefined) throw botApiErrors.badRequest(`there is no ${kind} in the request`);
    const message: SendInput = { ...input, text: input.caption ?? '' };
    // Cheap refusals first: nothing is stored for a chat the bot cannot write to.
    await roomOfChat(this.deps.sql, bot, input.chat_id);
    if (named.startsWith(attachPrefix)) {
      const part = parts.get(named.slice(attachPrefix.length));
      if (!part) throw botApiErrors.badRequest(`there is no file part named ${named.slice(attachPrefix.length)}`);
      return this.sendPart(bot, kind, message, part);
    }
    if (isUuid(named)) return this.sendUpload(bot, kind, message, named.toLowerCase());
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(named))
      throw botApiErrors.badRequest('files are not fetched from URLs here: upload the file or give a file_id');
    const file = await visibleFile(this.deps.sql, bot, named);
    if (!file) throw fileNotFound();
    const pixels = kind === 'photo' ? await this.storedImage(file.id) : {};
    const attachment: BotAttachment = { id: file.id, fileName: file.file_name, contentType: file.content_type, size: file.size, ...pixels };
    return this.messages.send(bot, message, async () => [attachment]);
  }

  async getFile(
    bot: BotPrincipal,
    fileId: string,
  ): Promise<{ file_id: string; file_unique_id: string; file_size: number; file_path: string }> {
    const file = await visibleFile(this.deps.sql, bot, fileId);
    if (!file) throw fileNotFound();
    return { file_id: fileIdOf(file.id), file_unique_id: fileUniqueIdOf(file.id), file_size: file.size, file_path: filePathOf(file.id) };
  }

  private async sendPart(bot: BotPrincipal, kind: FileKind, message: SendInput, part: File): Promise<TelegramMessage> {
    const { uploadMaxBytes, uploadAllowedTypes } = this.deps.config;
    if (part.size > uploadMaxBytes) throw new BotApiError(413, `Request Entity Too Large: the file is larger than ${uploadMaxBytes} bytes`);
    if (part.size === 0) throw botApiErrors.badRequest('file must be non-empty');
    const bytes = new Uint8Array(await part.arrayBuffer());
    const image = imageSize(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, imageHeadBytes)));
    if (kind === 'photo' && !image) throw botApiErrors.badRequest('the photo is not a JPEG, PNG, GIF or WebP image');
    const fileName = fileNameOf(part, kind, image);
    const contentType = kind === 'photo' ? image!.contentType : partType(part, fileName, image);
    if (!typeAllowed(contentType, uploadAllowedTypes)) throw botApiErrors.badRequest(`files of type ${contentType} may not be sent here`);
    const uploadId = await storeDirectUpload(this.deps, this.store, bot.accountId, { fileName, contentType, bytes });
    const pixels = kind === 'photo' ? { width: image!.width, height: image!.height } : {};
    try {
      return await this.messages.send(bot, message, async (client, messageId, now) => {
        const [stored] = await claimUploads(client, bot.accountId, messageId, [uploadId], now);
        return [{ ...stored!, ...pixels }];
      });
    } catch (err) {
      await discardDirectUpload(this.deps, this.store, uploadId);
      throw err;
    }
  }

  private async sendUpload(bot: BotPrincipal, kind: FileKind, message: SendInput, uploadId: string): Promise<TelegramMessage> {
    let pixels = {};
    if (kind === 'photo') {
      const upload = await firstRow(
        this.deps.sql,
        chatDb
          .selectFrom('uploads')
          .select('id')
          .where('id', '=', uploadId)
          .where('owner_id', '=', bot.accountId)
          .where('status', '=', 'COMPLETE'),
      );
      if (!upload) throw fileNotFound();
      pixels = await this.storedImage(uploadId);
    }
    const attach: AttachFiles = async (client, messageId, now) => {
      try {
        const [stored] = await claimUploads(client, bot.accountId, messageId, [uploadId], now);
        return [{ ...stored!, ...pixels }];
      } catch (err) {
        throw claimRefusal(err);
      }
    };
    return this.messages.send(bot, message, attach);
  }

  /** A stored file's size in pixels, read from its first bytes; 400 when it is no image. */
  private async storedImage(uploadId: string): Promise<{ width: number; height: number }> {
    const image = imageSize(await readHead(this.store, uploadId, imageHeadBytes));
    if (!image) throw botApiErrors.badRequest('the file is not a JPEG, PNG, GIF or WebP image');
    return { width: image.width, height: image.height };
  }
}
