/**
 * A TCP proxy on loopback between the api and PostgreSQL, to make the database fail under a
 * running api: `hang()` stops forwarding (a partition: queries and connects wait), `down()` cuts
 * every connection and refuses new ones (the server went away), `up()` restores it.
 */
import { connect, createServer, type Socket } from 'node:net';

export type TcpProxy = {
  port: number;
  /** A connection string like `url` but through the proxy. */
  urlFor(url: string): string;
  hang(): void;
  down(): void;
  up(): void;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let state: 'up' | 'hang' | 'down' = 'up';
  const sockets = new Set<Socket>();
  // Bytes held while hanging, delivered on up(): the peers see a delay, not a corruption.
  const held: (() => void)[] = [];
  const forward = (from: Socket, to: Socket) =>
    from.on('data', (chunk) => {
      if (state === 'up') to.write(chunk);
      else if (state === 'hang') held.push(() => to.write(chunk));
    });
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (state === 'down') return void client.destroy();
    const upstream = connect(target.port, target.host);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    urlFor: (url) => {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    hang: () => {
      state = 'hang';
    },
    down: () => {
      state = 'down';
      held.length = 0;
      for (const socket of sockets) socket.destroy();
    },
    up: () => {
      state = 'up';
      for (const deliver of held.splice(0)) deliver();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
