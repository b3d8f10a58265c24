// Picking webhook requests out of what the test receiver got: by path, by the event header (X-Svc-Event), by the
// workspace header (X-Svc-Workspace), or all but the pings a new webhook is sent.
import type { ReceivedRequest } from '../support/webhook-receiver.js';

export interface RequestFilter {
  path?: string;
  event?: string;
  workspace?: string;
}

/** Whether the request matches every criterion given. */
export function isRequest(r: ReceivedRequest, filter: RequestFilter): boolean {
  return (
    (filter.path === undefined || r.path === filter.path) &&
    (filter.event === undefined || r.headers['x-svc-event'] === filter.event) &&
    (filter.workspace === undefined || r.headers['x-svc-workspace'] === filter.workspace)
  );
}

/** The received requests that match every criterion given, in the order they came. */
export function requestsMatching(received: ReceivedRequest[], filter: RequestFilter): ReceivedRequest[] {
  return received.filter((r) => isRequest(r, filter));
}

/** The received requests to the path that are events, not pings, in the order they came. */
export function eventRequestsTo(received: ReceivedRequest[], path: string): ReceivedRequest[] {
  return received.filter((r) => r.path === path && r.headers['x-svc-event'] !== 'ping');
}

/** Whether some received request is of the event and carries the text (an id) in its body. */
export function hasEventWith(received: ReceivedRequest[], event: string, text: string): boolean {
  return received.some((r) => r.headers['x-svc-event'] === event && r.body.toString().includes(text));
}
