// Closing a BullMQ worker so that a drain ends even after Redis crashed and came back. Worker.close() interrupts the
// blocking pop by disconnecting the worker's blocking connection and waits for that connection's 'end' event; a
// connection still waiting to reconnect (its socket already gone) never emits one, so the close would wait forever
// and the drain run into SHUTDOWN_TIMEOUT_MS. The connection is given a moment to come back first; one that does not
// is closed without waiting for the jobs in progress (they cannot be completed without Redis anyway).
import type { Worker } from 'bullmq';

interface StatusClient {
  status: string;
  once(event: 'ready' | 'end', listener: () => void): unknown;
  off(event: 'ready' | 'end', listener: () => void): unknown;
}

/** The worker's blocking connection (BullMQ keeps it internal), if it has one yet. */
async function blockingClientOf(worker: Worker): Promise<StatusClient | undefined> {
  const connection = (worker as unknown as { backend?: { blockingConnection?: { client?: Promise<StatusClient> } } }).backend
    ?.blockingConnection;
  if (!connection?.client) return undefined;
  return Promise.race([connection.client.catch(() => undefined), new Promise<undefined>((r) => setTimeout(() => r(undefined), 100))]);
}

function settled(client: StatusClient, withinMs: number): Promise<void> {
  if (client.status === 'ready' || client.status === 'end') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, withinMs);
    client.once('ready', done);
  });
}

/** Closes the worker after its jobs in progress, or at once when its blocking connection cannot reach Redis. */
export async function closeWorker(worker: Worker, reconnectWaitMs = 3_000): Promise<void> {
  const blocking = await blockingClientOf(worker);
  if (blocking) await settled(blocking, reconnectWaitMs);
  const reachable = !blocking || blocking.status === 'ready' || blocking.status === 'end';
  await worker.close(!reachable);
}
