/**
 * A loopback HTTP server for a handler under test, and raw requests to it: the answer's bytes as
 * sent (still compressed), which fetch would decode.
 */
import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RawAnswer = { status: number; headers: Record<string, string>; body: Buffer };

/** `handler` listening on a free loopback port; `get(path, headers, method)` asks it. */
export async function rawServer(handler: RequestListener) {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<RawAnswer>((resolve, reject) => {
      httpRequest({ port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks),
          }),
        );
      })
        .on('error', reject)
        .end();
    });
  return { get, close: () => new Promise((resolve) => server.close(resolve)) };
}
