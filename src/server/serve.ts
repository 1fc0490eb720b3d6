// Starting the backend on a port: loopback unless told otherwise, "listening on …" on stderr.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.js';

export interface ServeOptions extends AppOptions {
  host?: string;
  /** 0: any free port. */
  port?: number;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const app = createApp(opts);
  const host = opts.host ?? '127.0.0.1';
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: opts.port ?? 8787 }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    close: () => new Promise<void>((resolve) => {
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
