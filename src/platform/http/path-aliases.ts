// Old spellings of a path that the document no longer names but existing callers still send (a trailing slash the
// spec dropped): the request is routed as the documented path, with its query string, before anything else sees it.
import type { IncomingMessage } from 'node:http';

export function aliasRewriter(aliases: Record<string, string>): (req: IncomingMessage) => string {
  return (req) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const target = aliases[path];
    return target === undefined ? url : target + (queryAt === -1 ? '' : url.slice(queryAt));
  };
}
