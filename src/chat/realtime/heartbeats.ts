// STOMP heart-beats of one session as negotiated at CONNECT. The gateway's sweep (tick) sends and checks them, so a
// session holds no timer for them; a client that sends no heart-beats is still asked for WebSocket pongs, so a dead
// peer does not linger.
import { heartbeatEol } from './session-frames.js';

/** What a sweep may do to the session. */
export interface HeartbeatPeer {
  send(bytes: Buffer): void;
  fail(code: string, message: string): void;
  terminate(): void;
  ping(): void;
}

export class Heartbeats {
  /** When anything last came from the client, or went to it. */
  lastReceivedAt = Date.now();
  lastSentAt = Date.now();
  private sendEvery = 0;
  private expectEvery = 0;
  private pingEvery = 0;
  private lastPingAt = 0;

  start(sendEvery: number, expectEvery: number, heartbeatMs: number): void {
    this.sendEvery = sendEvery;
    this.expectEvery = expectEvery;
    this.pingEvery = expectEvery > 0 ? 0 : Math.max(30_000, heartbeatMs);
    this.lastPingAt = Date.now();
  }

  /**
   * The gateway's sweep, every `slackMs / 2` or so: a heart-beat once nothing went out for the negotiated interval
   * less `slackMs` (so the gap stays below it however the sweep falls), the close of a peer silent for twice its
   * interval, and the ping of a client without heart-beats.
   */
  tick(now: number, slackMs: number, peer: HeartbeatPeer): void {
    if (this.sendEvery > 0 && now - this.lastSentAt >= this.sendEvery - slackMs) peer.send(heartbeatEol);
    if (this.expectEvery > 0) {
      if (now - this.lastReceivedAt > 2 * this.expectEvery)
        peer.fail('heartbeat_timeout', `nothing received for more than ${2 * this.expectEvery} ms`);
    } else if (now - this.lastPingAt >= this.pingEvery) {
      if (now - this.lastReceivedAt > 2 * this.pingEvery) return peer.terminate();
      this.lastPingAt = now;
      peer.ping();
    }
  }
}
