// UPLOAD_ALLOWED_TYPES entries: type/subtype, type/* or */*, all lower case.
export function typeAllowed(contentType: string, allowed: readonly string[]): boolean {
  const type = contentType.toLowerCase();
  const major = type.slice(0, type.indexOf('/'));
  return allowed.some((entry) => entry === '*/*' || entry === type || entry === `${major}/*`);
}
