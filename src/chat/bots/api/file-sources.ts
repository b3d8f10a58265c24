// Where a sent file comes from (docs/adr/0097-bot-api-files.md, 0136-bot-api-media.md): a multipart file part, an
// http(s) URL (fetched, file-urls.ts), the uploadId of a finished upload session of the bot's own account, or the
// file_id of a file the bot can see. Bytes that arrive (a part, a URL) are stored as an upload of the bot's account
// before the message is written and discarded when it is not; the others are only checked. Each prepared file then
// puts itself on the message inside the send's transaction, with the facts the method knows of it.
import { AppError } from '../../../platform/http/app-error.js';
import { isUuid } from '../../../platform/ids.js';
import type { SqlClient } from '../../../platform/db/sql.js';
import { claimUploads } from '../../media/attachments.js';
import { discardDirectUpload, readHead, storeDirectUpload } from '../../media/direct-upload.js';
import { imageHeadBytes, imageSize } from '../../media/image-size.js';
import type { MediaStore } from '../../../core/media/store.js';
import { typeAllowed } from '../../media/types.js';
import type { BotDeps } from '../deps.js';
import type { BotPrincipal } from './context.js';
import { BotApiError, botApiErrors } from './errors.js';
import { contentTypeOf, fileNameOf } from './file-types.js';
import { fetchFileUrl, fileUrlPattern, wrongFileUrl } from './file-urls.js';
import { known, type BotAttachment, type FileKind } from './file-views.js';
import { ownCompleteUpload } from './file-queries.js';
import { visibleFile } from './file-visibility.js';
import { mediaFacts } from './media-facts.js';
import { attachPrefix } from './forms.js';

/** What the sender states of a file besides its bytes (sizes in pixels of a photo are read instead). */
export type StatedFacts = Pick<BotAttachment, 'width' | 'height' | 'duration' | 'performer' | 'title' | 'mediaGroupId'>;

export interface PreparedFile {
  /** Puts the file on the message being written, inside the send's transaction. */
  attach(client: SqlClient, messageId: string, now: Date): Promise<BotAttachment>;
  /** Removes what preparing stored, when no message took it. */
  discard(): Promise<void>;
}

export const fileNotFound = () => botApiErrors.badRequest('file not found');

/** The claim errors of an uploadId, in the Bot API's words. */
function claimRefusal(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  if (err.code === 'upload_not_found') return fileNotFound();
  if (err.code === 'upload_incomplete') return botApiErrors.badRequest('the upload is not complete');
  if (err.code === 'upload_already_attached') return botApiErrors.badRequest('the upload was sent already; send it again by its file_id');
  return err;
}

interface ArrivedBytes {
  bytes: Uint8Array;
  fileName: string;
  contentType: string;
}

const pictureKinds = new Set<FileKind>(['video', 'animation', 'video_note']);
const soundKinds = new Set<FileKind>(['audio', 'voice']);

/** What the file's own headers say, for the kinds that show it. */
function readFacts(kind: FileKind, bytes: Uint8Array): StatedFacts {
  if (pictureKinds.has(kind)) return mediaFacts(bytes);
  if (!soundKinds.has(kind)) return {};
  const { duration } = mediaFacts(bytes);
  return duration !== undefined ? { duration } : {};
}

/** How long a file URL may take to answer in full. */
export const fileUrlTimeoutMs = 20_000;

export class FileSources {
  constructor(
    private readonly deps: BotDeps,
    private readonly store: MediaStore,
  ) {}

  /** The file `named` stands for, checked and (when its bytes arrived) stored; Telegram's 400 when it is none. */
  async prepare(bot: BotPrincipal, kind: FileKind, named: string, parts: Map<string, File>, facts: StatedFacts): Promise<PreparedFile> {
    const stated = { kind, ...facts };
    if (named.startsWith(attachPrefix)) {
      const part = parts.get(named.slice(attachPrefix.length));
      if (!part) throw botApiErrors.badRequest(`there is no file part named ${named.slice(attachPrefix.length)}`);
      const bytes = new Uint8Array(await part.arrayBuffer());
      return this.stored(bot, stated, { bytes, fileName: part.name, contentType: part.type });
    }
    if (isUuid(named)) return this.session(bot, stated, named.toLowerCase());
    if (fileUrlPattern.test(named)) {
      const limits = { maxBytes: this.deps.config.uploadMaxBytes, timeoutMs: fileUrlTimeoutMs };
      return this.stored(bot, stated, await fetchFileUrl(named, this.deps.webhookPolicy, limits));
    }
    // Another scheme is no file this server can fetch.
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(named)) throw wrongFileUrl();
    const file = await visibleFile(this.deps.sql, bot, named);
    if (!file) throw fileNotFound();
    const pixels = kind === 'photo' ? await this.storedImage(file.id) : {};
    const attachment: BotAttachment = { id: file.id, fileName: file.file_name, contentType: file.content_type, size: file.size };
    return { attach: async () => ({ ...attachment, ...stated, ...pixels }), discard: async () => undefined };
  }

  /** Bytes that arrived with the call (a part, a URL's content), stored as an upload of the bot's account. */
  private async stored(bot: BotPrincipal, stated: StatedFacts & { kind: FileKind }, arrived: ArrivedBytes): Promise<PreparedFile> {
    const { uploadMaxBytes, uploadAllowedTypes } = this.deps.config;
    const { bytes } = arrived;
    const { kind } = stated;
    if (bytes.length > uploadMaxBytes)
      throw new BotApiError(413, `Request Entity Too Large: the file is larger than ${uploadMaxBytes} bytes`);
    if (bytes.length === 0) throw botApiErrors.badRequest('file must be non-empty');
    const image = imageSize(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, imageHeadBytes)));
    if (kind === 'photo' && !image) throw botApiErrors.badRequest('the photo is not a JPEG, PNG, GIF or WebP image');
    const fileName = fileNameOf(arrived.fileName, kind, image);
    const contentType = kind === 'photo' ? image!.contentType : contentTypeOf(arrived.contentType, fileName, image, kind);
    if (!typeAllowed(contentType, uploadAllowedTypes)) throw botApiErrors.badRequest(`files of type ${contentType} may not be sent here`);
    const uploadId = await storeDirectUpload(this.deps, this.store, bot.accountId, { fileName, contentType, bytes });
    // A photo's size is read from its header; other media take what their headers say, unless the bot said it.
    const read = kind === 'photo' ? { width: image!.width, height: image!.height } : readFacts(kind, bytes);
    return {
      attach: async (client, messageId, now) => {
        const [claimed] = await claimUploads(client, bot.accountId, messageId, [uploadId], now);
        // A fact the bot left out does not hide one read from the file.
        return kind === 'photo' ? { ...claimed!, ...stated, ...read } : { ...claimed!, ...read, ...known(stated) };
      },
      discard: () => discardDirectUpload(this.deps, this.store, uploadId),
    };
  }

  /** A finished upload session of the bot's own account, claimed by the message. */
  private async session(bot: BotPrincipal, stated: StatedFacts & { kind: FileKind }, uploadId: string): Promise<PreparedFile> {
    let pixels = {};
    if (stated.kind === 'photo') {
      // Only the bot's own finished upload is read.
      if (!(await ownCompleteUpload(this.deps.sql, uploadId, bot.accountId))) throw fileNotFound();
      pixels = await this.storedImage(uploadId);
    }
    return {
      attach: async (client, messageId, now) => {
        try {
          const [claimed] = await claimUploads(client, bot.accountId, messageId, [uploadId], now);
          return { ...claimed!, ...stated, ...pixels };
        } catch (err) {
          throw claimRefusal(err);
        }
      },
      discard: async () => undefined,
    };
  }

  /** A stored file's size in pixels, read from its first bytes; 400 when it is no image. */
  private async storedImage(uploadId: string): Promise<{ width: number; height: number }> {
    const image = imageSize(await readHead(this.store, uploadId, imageHeadBytes));
    if (!image) throw botApiErrors.badRequest('the file is not a JPEG, PNG, GIF or WebP image');
    return { width: image.width, height: image.height };
  }
}
