/**
 * Raw HTTP/1.1 clients for the tests of what a server does to connections on shutdown: whether a
 * new connection is refused or reset, whether a request on a keep-alive socket is answered.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

/** A GET answered on its own connection: status, Connection header and body. Rejects on a socket error. */
export function answer(port: number, path: string): Promise<{ status?: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode, connection: response.headers.connection, body }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** A socket that was answered once with keep-alive (GET /) and is left open, idle. */
export async function idleKeepAliveSocket(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
  await new Promise<void>((resolve, reject) => {
    socket.once('data', (chunk: Buffer) =>
      /^HTTP\/1\.1 200/.test(chunk.toString()) && /keep-alive/i.test(chunk.toString())
        ? resolve()
        : reject(new Error(`not a keep-alive answer: ${chunk.toString()}`)),
    );
    socket.once('error', reject);
  });
  return socket;
}

/**
 * Sends GET / on `socket` and resolves, once the socket closes, with everything that came back
 * (empty when closed without an answer), or with the error code when it fails (ECONNRESET, EPIPE).
 */
export function nextAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve(data));
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
  });
}

/**
 * What a new TCP connection meets: its error code when refused or reset, `answered` when the GET it
 * sends is answered, `closed` when the server closes it without an answer.
 */
export function newConnection(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('connect', () => socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n'));
    socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve(data ? 'answered' : 'closed'));
  });
}
