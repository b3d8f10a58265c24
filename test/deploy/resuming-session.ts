// A STOMP session that behaves as the SDK does across a node's restart: on close it connects again (through the load
// balancer, so to any node) and subscribes with resume-after set to the last seq it received. It records every seq
// that does not follow the one before (a gap or a repeat) and how often it connected.
import { Client } from '@stomp/stompjs';
import WebSocket from 'ws';

export class ResumingSession {
  lastSeq: number | undefined;
  received = 0;
  connections = 0;
  readonly breaks: Array<{ after: number; got: number }> = [];
  private readonly client: Client;

  private constructor(url: string, token: string, ready: () => void) {
    this.client = new Client({
      webSocketFactory: () => new WebSocket(url) as never,
      reconnectDelay: 200,
      heartbeatIncoming: 10_000,
      heartbeatOutgoing: 10_000,
      connectHeaders: { Authorization: `Bearer ${token}` },
      debug: () => undefined,
    });
    this.client.onConnect = (frame) => {
      this.connections++;
      // The first connection starts at the account's newest seq; every later one resumes after the last received.
      this.lastSeq ??= Number(frame.headers['last-seq']);
      const receipt = `subscribed-${this.connections}`;
      this.client.watchForReceipt(receipt, ready);
      this.client.subscribe('/user/queue/events', (message) => this.take(Number(message.headers.seq)), {
        id: 'events',
        receipt,
        'resume-after': String(this.lastSeq),
      });
    };
  }

  /** Resolves once the first subscription is in place. */
  static open(url: string, token: string): Promise<ResumingSession> {
    return new Promise((resolve) => {
      const session: ResumingSession = new ResumingSession(url, token, () => resolve(session));
      session.client.activate();
    });
  }

  private take(seq: number): void {
    this.received++;
    if (this.lastSeq !== undefined && seq !== this.lastSeq + 1) this.breaks.push({ after: this.lastSeq, got: seq });
    if (this.lastSeq === undefined || seq > this.lastSeq) this.lastSeq = seq;
  }

  async close(): Promise<void> {
    await this.client.deactivate();
  }
}
