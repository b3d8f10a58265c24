// A STOMP client kept as small as the protocol allows (CONNECT, one SUBSCRIBE, MESSAGE bodies), so that a bench that
// opens hundreds of them in one process measures the server rather than a client library.
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

/**
 * A member's socket on the chat listener at `url`, subscribed to `destination`; resolves once the subscription is
 * confirmed. Each MESSAGE's body goes to `onMessage` with the moment it arrived.
 */
export function connectMember(
  url: string,
  token: string,
  destination: string,
  onMessage: (body: string, at: number) => void,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
    let connected = false;
    ws.on('open', () => ws.send(`CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${token}\n\n\0`));
    ws.on('message', (data: Buffer) => {
      const at = performance.now();
      const text = data.toString('utf8');
      if (!connected) {
        if (!text.startsWith('CONNECTED')) return reject(new Error(`CONNECT refused: ${text.slice(0, 200)}`));
        connected = true;
        ws.send(`SUBSCRIBE\nid:s\ndestination:${destination}\nreceipt:sub\n\n\0`);
        return;
      }
      if (text.startsWith('RECEIPT')) return resolve(ws);
      if (!text.startsWith('MESSAGE')) return;
      const start = text.indexOf('\n\n');
      onMessage(text.slice(start + 2, text.lastIndexOf('\0')), at);
    });
    ws.on('error', reject);
  });
}
