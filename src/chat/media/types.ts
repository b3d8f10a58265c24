// UPLOAD_ALLOWED_TYPES entries: type/subtype, type/* or */*, all lower case.
export function typeAllowed(contentType: string, allowed: readonly string[]): boolean {
  const type = contentType.toLowerCase();
  const major = type.slice(0, type.indexOf('/'));
  return allowed.some((entry) => entry === '*/*' || entry === type || entry === `${major}/*`);
}

// Types by file name, for files whose sender named no type (application/octet-stream), as Telegram libraries send
// every upload: the types UPLOAD_ALLOWED_TYPES allows by default.
const byExtension: Record<string, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  pdf: 'application/pdf',
  zip: 'application/zip',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
};

/** The type a file name's extension stands for, or undefined. */
export function typeOfFileName(fileName: string): string | undefined {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? undefined : byExtension[fileName.slice(dot + 1).toLowerCase()];
}
