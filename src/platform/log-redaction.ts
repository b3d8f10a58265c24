// What must never reach a log: credentials that travel in request URLs. A bot token is the path segment after
// /bot/ or /bot (the Bot API's /bot<token>/<method> form), and a query parameter whose name says token, key or
// secret (access_token, api_key, upload_token...) carries one too. Upload tokens (upt_...) travel in the Upload-Token
// header, which is not logged; any that shows up in a URL is cut out as well.
export const redacted = '[redacted]';

const credentialParameter = /token|key|secret|signature|password/i;
const uploadToken = /upt_[A-Za-z0-9_-]+/g;

/** The path with the bot token segment replaced. */
function redactPath(path: string): string {
  if (!path.startsWith('/bot')) return path;
  const start = path.startsWith('/bot/') ? 5 : 4;
  const end = path.indexOf('/', start);
  const tokenEnd = end === -1 ? path.length : end;
  if (tokenEnd === start) return path;
  return `${path.slice(0, start)}${redacted}${path.slice(tokenEnd)}`;
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is judged as written.
      }
      return eq !== -1 && credentialParameter.test(decoded) ? `${name}=${redacted}` : pair;
    })
    .join('&');
}

/** A request URL (path and query) fit for a log line. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const safe = q === -1 ? redactPath(path) : `${redactPath(path)}?${redactQuery(url.slice(q + 1))}`;
  return safe.includes('upt_') ? safe.replace(uploadToken, redacted) : safe;
}
