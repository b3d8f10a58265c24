// One guard for every outbound request the platform makes on a client's behalf (bot webhooks, workspace and partner
// webhooks): see addresses.ts, url.ts, resolve.ts and connect.ts.
export { isReachableAddress } from './addresses.js';
export { hostOf, isLiteralHost, outboundUrlProblem, unreachableAddress, type OutboundPolicy } from './url.js';
export { OutboundRefused, resolveOutbound, type HostLookup, type ResolvedTarget } from './resolve.js';
export { guardedLookup, outboundRequest, pinnedLookup } from './connect.js';
