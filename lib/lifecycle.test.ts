import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { answer, idleKeepAliveSocket, newConnection, nextAnswer } from '../tests/setup/sockets';
import { firstAnswer, gracefulClose, HOLD_MAX_MS, holdUntilReady } from './lifecycle';

/** An answer larger than loopback's socket buffers hold (a few MB): a client that does not read holds it up. */
const LARGE_ANSWER = Buffer.alloc(32 * 1024 * 1024, 'a');

/** Resolves once the I/O already under way on loopback has been handled: a few turns of the event loop. */
async function ioTurn() {
  for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('gracefulClose', () => {
  let server: Server;
  let port: number;
  let close: () => Promise<void>;
  /** The /slow requests' responses, left open until the test ends them. */
  const held: ServerResponse[] = [];
  beforeEach(async () => {
    server = createServer((request, response) => {
      if (request.method === 'POST') {
        // Read whole, then answered with more than the socket buffers hold: its client reads it slowly.
        request.resume().once('end', () => response.end(LARGE_ANSWER));
      } else if (request.url === '/slow') held.push(response);
      else response.end('answered');
    });
    close = gracefulClose(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => {
    vi.useRealTimers();
    server.closeAllConnections();
    server.close();
    held.length = 0;
  });
  /** From here on the test moves the clock: DRAIN_MS and IDLE_GRACE_MS pass only when it says. */
  const fixClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const closedSoon = (socket: Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));
  /** A new connection, once the server has accepted it. */
  const accepted = async () => {
    const taken = new Promise<void>((resolve) => server.once('connection', () => resolve()));
    const socket = connect(port, '127.0.0.1');
    await taken;
    return socket;
  };

  it('closes the listener at once (a new connection is refused, not reset) and lets a request in flight finish with Connection: close', async () => {
    const slow = answer(port, '/slow');
    await vi.waitFor(() => expect(held).toHaveLength(1));
    fixClock();
    const closed = close();

    expect(await newConnection(port)).toBe('ECONNREFUSED');
    held[0].end('slow answered');
    expect(await slow).toEqual({ status: 200, connection: 'close', body: 'slow answered' });
    await closed;
  });

  it('answers, with Connection: close, a request sent on an idle keep-alive socket just after the close, rather than resetting it', async () => {
    const socket = await idleKeepAliveSocket(port);
    fixClock();
    const closed = close();

    // http.Server's own close() destroys this socket at once: the request would meet a reset.
    expect(await nextAnswer(socket)).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: close\r\n[^]*answered/);
    await closed;
  });

  it('answers, with Connection: close, a request sent later on a connection opened just before the close, rather than resetting it', async () => {
    const socket = await accepted();
    fixClock();
    const closed = close();
    // Past the 100 ms when idle keep-alive sockets close: Node's closeIdleConnections() took this
    // one, which has not sent its request yet, for idle.
    vi.advanceTimersByTime(500);
    await ioTurn();

    expect(await nextAnswer(socket)).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: close\r\n[^]*answered/);
    await closed;
  });

  it('closes a connection that has sent nothing 1 s after the close', async () => {
    const socket = await accepted();
    let socketClosed = false;
    socket.once('close', () => (socketClosed = true));
    fixClock();
    const closed = close();

    vi.advanceTimersByTime(999);
    await ioTurn();
    expect(socketClosed).toBe(false);
    vi.advanceTimersByTime(1);
    await closed;
    await vi.waitFor(() => expect(socketClosed).toBe(true));
  });

  it('lets a POST in flight at the close finish with its whole answer, however slowly its client reads it', async () => {
    const socket = await accepted();
    socket.pause(); // reads nothing until told: the answer waits in the server's buffers
    const body = 'x'.repeat(1000);
    const received = new Promise<ServerResponse>((resolve) =>
      server.once('request', (_request, response: ServerResponse) => resolve(response)),
    );
    socket.write(
      `POST /form HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 500)}`,
    );
    const response = await received;
    fixClock();
    const closed = close();
    socket.write(body.slice(500)); // the rest of the body: the server answers
    for (let turns = 0; turns < 100 && !response.writableEnded; turns += 1) await ioTurn();
    expect(response.writableEnded).toBe(true); // ended, but far from all sent
    // Past every sweep but the cut: Node's closeIdleConnections() took a connection whose answer
    // was ended but not yet sent for idle, and reset it.
    vi.advanceTimersByTime(4_000);
    await ioTurn();

    const chunks: Buffer[] = [];
    const ended = new Promise<string>((resolve) => {
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      socket.on('close', () => resolve('closed'));
    });
    socket.resume();
    expect(await ended).toBe('closed');
    const answer = Buffer.concat(chunks);
    const head = answer.subarray(0, answer.indexOf('\r\n\r\n')).toString();
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: close/);
    expect(answer.length - head.length - 4).toBe(LARGE_ANSWER.length);
    await closed;
  });

  it('answers a request that reached an idle keep-alive socket before the 100 ms sweep but was not read yet (a busy event loop)', async () => {
    const socket = await idleKeepAliveSocket(port);
    fixClock();
    const closed = close();
    let data = '';
    const ended = new Promise<string>((resolve) => {
      socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      socket.on('close', () => resolve(data));
    });
    // The request is in the server's receive buffer, and the sweep's timer comes due before the
    // event loop has read it, as when a page's render held the loop past it.
    await new Promise<void>((resolve) =>
      socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n', () => resolve()),
    );
    vi.advanceTimersByTime(100);

    expect(await ended).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: close\r\n[^]*answered/);
    await closed;
  });

  it('lets the second of two pipelined requests, read with the first, finish after the first is answered', async () => {
    const socket = await accepted();
    let data = '';
    const ended = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
      socket.on('close', () => resolve());
    });
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\nGET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await vi.waitFor(() => expect(held).toHaveLength(1));
    await vi.waitFor(() => expect(data).toContain('answered'));
    fixClock();
    const closed = close();
    vi.advanceTimersByTime(1_000); // every sweep: the socket has read no byte since the first answer
    await ioTurn();

    held[0].end('slow answered');
    await ended;
    expect(data).toMatch(
      /^HTTP\/1\.1 200 OK\r\n[^]*answered[^]*HTTP\/1\.1 200 OK\r\n[^]*Connection: close\r\n[^]*slow answered$/,
    );
    await closed;
  });

  it('closes an idle keep-alive socket 100 ms after the close', async () => {
    const socket = await idleKeepAliveSocket(port);
    let socketClosed = false;
    socket.once('close', () => (socketClosed = true));
    fixClock();
    const closed = close();

    vi.advanceTimersByTime(99);
    await ioTurn();
    expect(socketClosed).toBe(false);
    vi.advanceTimersByTime(1);
    await closed;
    await vi.waitFor(() => expect(socketClosed).toBe(true));
  });

  it('closes a keep-alive socket whose answer began before the close, 100 ms after that answer ends', async () => {
    const socket = await idleKeepAliveSocket(port);
    socket.write('GET /slow HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    await vi.waitFor(() => expect(held).toHaveLength(1));
    held[0].writeHead(200).write('begun '); // keep-alive: its headers are out
    fixClock();
    const closed = close();
    vi.advanceTimersByTime(100);
    await ioTurn();
    expect(socket.destroyed).toBe(false); // busy, not idle

    const socketClosed = closedSoon(socket);
    held[0].end('and ended');
    await ioTurn();
    vi.advanceTimersByTime(100);
    await socketClosed;
    await closed;
  });

  it('cuts a connection still busy 5 s after the close', async () => {
    const slow = answer(port, '/slow').catch((error: NodeJS.ErrnoException) => error.code);
    await vi.waitFor(() => expect(held).toHaveLength(1));
    fixClock();
    const closed = close();

    vi.advanceTimersByTime(4_999);
    await ioTurn();
    expect(held[0].socket?.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await slow).toBe('ECONNRESET');
    await closed;
  });
});

describe('the start: firstAnswer and holdUntilReady (ADR 025)', () => {
  let server: Server;
  let port: number;
  /** The paths the server's own handler answered, in order. */
  const handled: string[] = [];
  beforeEach(async () => {
    server = createServer((request, response) => {
      handled.push(request.url ?? '');
      response.end('answered');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => {
    server.closeAllConnections();
    server.close();
    handled.length = 0;
  });

  it("resolves firstAnswer once the first answer but the probes' has gone out", async () => {
    let answered = false;
    void firstAnswer(server).then(() => (answered = true));
    for (const probe of ['/healthz', '/readyz', '/api/healthz', '/api/readyz?full=1']) await answer(port, probe);
    await ioTurn();
    expect(answered).toBe(false);

    expect(await answer(port, '/')).toMatchObject({ status: 200, body: 'answered' });
    await vi.waitFor(() => expect(answered).toBe(true));
  });

  it('holds every request but the probes until ready, then hands them to the handler as they came', async () => {
    let open!: () => void;
    holdUntilReady(server, new Promise<void>((resolve) => (open = resolve)));
    expect(await answer(port, '/healthz')).toMatchObject({ status: 200, body: 'answered' });
    const page = answer(port, '/bus?tab=down');
    await ioTurn();
    expect(handled).toEqual(['/healthz']);

    open();
    expect(await page).toMatchObject({ status: 200, body: 'answered' });
    expect(await answer(port, '/faq')).toMatchObject({ status: 200, body: 'answered' });
    expect(handled).toEqual(['/healthz', '/bus?tab=down', '/faq']);
  });

  it('answers a request held HOLD_MAX_MS 503, telling it to come back, and still hands on the later ones once open', async () => {
    let open!: () => void;
    holdUntilReady(server, new Promise<void>((resolve) => (open = resolve)));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const page = answer(port, '/');
      // The request reaches the server and is held: its limit is the one timer.
      for (let turns = 0; turns < 100 && vi.getTimerCount() === 0; turns += 1) await ioTurn();
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(HOLD_MAX_MS - 1);
      await ioTurn();
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(1);
      expect(await page).toMatchObject({ status: 503, body: '서버를 시작하고 있습니다. 잠시 후 다시 시도해 주세요.' });
    } finally {
      vi.useRealTimers();
    }
    open();
    expect(await answer(port, '/faq')).toMatchObject({ status: 200, body: 'answered' });
    expect(handled).toEqual(['/faq']);
  });

  it('answers the requests it held 503 when the database fails to open', async () => {
    let fail!: (error: Error) => void;
    holdUntilReady(server, new Promise<void>((_resolve, reject) => (fail = reject)));
    const page = answer(port, '/');
    await ioTurn();
    fail(new Error('the disk is gone'));
    expect(await page).toMatchObject({ status: 503, body: '서버를 시작하지 못했습니다. 잠시 후 다시 시도해 주세요.' });
    expect(handled).toEqual([]);
  });
});
