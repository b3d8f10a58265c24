// The headers every stored file is served with: always an attachment that a browser neither renders nor sniffs,
// never cached, whatever its type.

/** RFC 6266: an ASCII fallback and the UTF-8 name (RFC 8187). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export function attachmentHeaders(file: { file_name: string; content_type: string; size: number }): Record<string, string> {
  return {
    'content-type': file.content_type,
    'content-length': String(file.size),
    'content-disposition': contentDisposition(file.file_name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, no-store',
  };
}
