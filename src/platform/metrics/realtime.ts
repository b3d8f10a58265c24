// STOMP over WebSocket: sessions and subscriptions (read from the gateways at scrape time), frames and slow
// consumers cut off (counted as they happen, through pre-bound children: an increment and nothing else).
import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from './registry.js';
import { ScrapeSources } from './scrape-sources.js';

/** What a realtime gateway tells the scrape. */
export interface RealtimeCounts {
  readonly sessions: number;
  readonly subscriptions: number;
}

const gateways = new ScrapeSources<RealtimeCounts>();

new Gauge({
  name: 'platform_stomp_sessions',
  help: 'Open STOMP sessions (WebSocket connections) on this process',
  registers: [metricsRegistry],
  collect() {
    this.set(gateways.all.reduce((n, g) => n + g.sessions, 0));
  },
});

new Gauge({
  name: 'platform_stomp_subscriptions',
  help: 'STOMP subscriptions held by the open sessions of this process',
  registers: [metricsRegistry],
  collect() {
    this.set(gateways.all.reduce((n, g) => n + g.subscriptions, 0));
  },
});

const frames = new Counter({
  name: 'platform_stomp_frames_total',
  help: 'STOMP frames received from and sent to clients (heart-beats excluded on receipt, included on sending)',
  labelNames: ['direction'] as const,
  registers: [metricsRegistry],
});

export const stompFramesReceived = frames.labels({ direction: 'in' });
export const stompFramesSent = frames.labels({ direction: 'out' });

export const stompSlowConsumersDropped = new Counter({
  name: 'platform_stomp_slow_consumers_dropped_total',
  help: 'STOMP sessions ended because the client did not read what was queued for it',
  registers: [metricsRegistry],
});

/** Lists a gateway for the session and subscription gauges; returns the removal. */
export function watchRealtime(gateway: RealtimeCounts): () => void {
  return gateways.add(gateway);
}
