// A TCP load balancer the test controls, as a Kubernetes Service is to its endpoints: each new connection goes to the
// next backend in rotation (round robin); taking a backend out of rotation sends it no new connection and leaves its
// open ones (requests in flight, WebSocket sessions) to the backend, which closes them as it drains.
import { connect, createServer, type Server, type Socket } from 'node:net';

export class Balancer {
  private rotation: number[] = [];
  private turn = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<Balancer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const balancer = new Balancer(server, typeof address === 'object' && address ? address.port : 0);
    server.on('connection', (client) => balancer.forward(client));
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The backends' ports that get new connections from now on. */
  route(ports: number[]): void {
    this.rotation = [...ports];
  }

  private forward(client: Socket): void {
    const backendPort = this.rotation[this.turn++ % Math.max(this.rotation.length, 1)];
    if (backendPort === undefined) {
      client.destroy();
      return;
    }
    const backend = connect(backendPort, '127.0.0.1');
    for (const [from, to] of [
      [client, backend],
      [backend, client],
    ] as const) {
      this.sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
    }
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
