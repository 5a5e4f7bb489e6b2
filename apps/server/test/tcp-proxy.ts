import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Like a database that stops: every open connection is dropped and new ones are refused. */
  cut: () => Promise<void>;
  /** Listens again on the same port and passes connections through. */
  restore: () => Promise<void>;
  close: () => Promise<void>;
}

/** A TCP proxy on a free loopback port to `target`, which a test can cut and restore. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };
  const newServer = (): Server =>
    createServer((client) => {
      const upstream = connect(target.port, target.host);
      track(client);
      track(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', drop);
      upstream.on('error', drop);
      client.on('close', drop);
      upstream.on('close', drop);
      client.pipe(upstream).pipe(client);
    });
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const stop = (server: Server) =>
    new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
      for (const socket of open) socket.destroy();
    });
  let server: Server | null = newServer();
  const port = await listen(server, 0);
  return {
    port,
    cut: async () => {
      if (server) await stop(server);
      server = null;
    },
    restore: async () => {
      if (server) return;
      server = newServer();
      await listen(server, port);
    },
    close: async () => {
      if (server) await stop(server);
      server = null;
    },
  };
}
