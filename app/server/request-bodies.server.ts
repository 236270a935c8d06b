/**
 * Request bodies at the edge (docs/deploy.md §Request bodies and origins, ADR 019): each
 * read whole within its route's cap (app/server/body-limit.server.ts) and the body budget
 * (app/server/body-budget.server.ts), counted as its bytes arrive and cut when it stops arriving;
 * and the answers given to a body that is not read (413, 503, 408, 400, or any other), so that the
 * client sees them rather than a reset. The edge applies them to every request with a body
 * (app/server/remix-adapter.server.ts, app/server/fast-paths.server.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyStopped, readBodyUpTo } from '../../lib/http-body';
import { createBodyBudget, type BodyClient, type BodyPoolName } from '~/server/body-budget.server';
import { bodyLimitOf, tooLargeAnswer } from '~/server/body-limit.server';
import { localeOf } from '~/i18n/locale.server';
import { pathOf } from '~/server/request-path.server';
import { doorRefusals } from '../../lib/observability/metrics';

/** The door refusals counted (campus_bus_door_refusals_total), by status. */
const REFUSAL_REASONS: Record<number, string> = { 413: 'body_cap', 403: 'origin', 503: 'busy' };

/** An answer given without reading the request's body: its status, content type, body and extra headers. */
export type UnreadAnswer = { status: number; contentType: string; body: string; headers?: Record<string, string> };

/** How long a refused body is still read (and dropped) after its answer, so the client reads the answer rather than a reset, in ms. */
const LINGER_MS = 5_000;
/** What a body refused for the budget is told, with Retry-After (seconds). */
const BUSY = { status: 503, retryAfterSec: 5, text: '지금은 요청이 많아 받지 못했습니다. 잠시 후 다시 보내주세요.' };
/**
 * The most ms a request body may send nothing: past it the request is answered 408 and its
 * connection cut. A phone on a slow link sends something every second or two; a body held open
 * without sending is someone holding a connection.
 */
const BODY_IDLE_MS = 10_000;
/** What a body that stopped arriving is told (its connection is then closed). */
const TIMED_OUT: UnreadAnswer = {
  status: 408,
  contentType: 'text/plain; charset=utf-8',
  body: '보내는 내용이 끊겨 요청을 받지 못했습니다. 다시 보내주세요.',
};

/**
 * The fewest bytes a body's chunks carry on average before its chunk count is cut (chunkCapOf). A
 * browser writes a form in large pieces, and a slow link still delivers whole TCP segments (536
 * bytes at the least); a body sent a few bytes per chunk costs the event loop about 10 µs a chunk
 * (seconds for a form's few MB), and is cut.
 */
const MIN_MEAN_CHUNK_BYTES = 256;
/** The chunks any body may come in, however small its cap. */
const MIN_CHUNK_CAP = 1024;
/**
 * The most chunks a body capped at `maxBytes` may come in (a read past it is refused 400, and its
 * connection closed): about 21,500 for the image forms' 5.25 MiB, at about 10 µs of the event loop
 * each.
 */
const chunkCapOf = (maxBytes: number) => Math.max(MIN_CHUNK_CAP, Math.ceil(maxBytes / MIN_MEAN_CHUNK_BYTES));
/** What a body sent in too many chunks (chunkCapOf) is told; its connection is then closed. */
const FRAGMENTED: UnreadAnswer = {
  status: 400,
  contentType: 'text/plain; charset=utf-8',
  body: '보내는 내용이 너무 잘게 나뉘어 와 받지 못했습니다. 다시 보내주세요.',
};

/** The body cap of `req` (app/server/body-limit.server.ts): by its path and content type. */
export const limitOf = (req: IncomingMessage) => bodyLimitOf(pathOf(req), req.headers['content-type']);

/** The 413 of a body over its route's cap (app/server/body-limit.server.ts), with the route's message in the page's language. */
export function tooLarge(req: IncomingMessage): UnreadAnswer {
  const path = pathOf(req);
  const locale = localeOf(path, { cookie: req.headers.cookie, acceptLanguage: req.headers['accept-language'] });
  return { status: 413, ...tooLargeAnswer(limitOf(req), path, locale) };
}

/** The 503 of a body that does not fit the budget. */
const busy = (): UnreadAnswer => ({
  status: BUSY.status,
  contentType: 'text/plain; charset=utf-8',
  body: BUSY.text,
  headers: { 'Retry-After': String(BUSY.retryAfterSec) },
});

/** What a request the server cannot read is told: a body cut short, or a Host that is more than `host[:port]` or makes no URL. */
export const UNREADABLE: UnreadAnswer = {
  status: 400,
  contentType: 'text/plain; charset=utf-8',
  body: '요청을 읽지 못했습니다.',
};

/** The edge's readers and refusals of request bodies (createRequestBodies). */
export type RequestBodies = ReturnType<typeof createRequestBodies>;

/**
 * @param headers added to every refusal: the edge's security headers.
 * @param clientOf the client whose shares of the budget a request counts against (its address as
 *   express reads it, TRUST_PROXY, keyed as the api's limits key it: lib/client-address.ts).
 */
export function createRequestBodies({
  headers: securityHeaders,
  clientOf,
}: {
  headers: Record<string, string>;
  clientOf(req: IncomingMessage): BodyClient;
}) {
  /**
   * The memory request bodies may take at once, counted as their bytes arrive, in three pools
   * (image forms, the chatbot skill, the rest) with shares per address and network. A body that
   * would take more is refused 503 with Retry-After, so many uploads at once, or many held open,
   * cannot run the process out of memory, nor keep the other forms' bodies out.
   */
  const bodies = createBodyBudget();

  /**
   * Answers a request whose body is not read: `status` with `answer`. What the client still sends is
   * read and dropped for up to LINGER_MS (closing a socket with unread bytes resets it, and the
   * client would never see the answer), then the connection is cut; a body not `coming` (not yet
   * invited by `100 Continue`, or stopped arriving) is not awaited, and the connection closes.
   */
  function refuse(req: IncomingMessage, res: ServerResponse, answer: UnreadAnswer, { coming = true } = {}): void {
    const reason = REFUSAL_REASONS[answer.status];
    if (reason) doorRefusals.inc({ reason });
    const headers = {
      ...securityHeaders,
      'Content-Type': answer.contentType,
      'Cache-Control': 'no-store',
      ...answer.headers,
    };
    res.writeHead(answer.status, coming ? headers : { ...headers, Connection: 'close' });
    res.end(answer.body);
    if (!coming) return;
    const cut = setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
    // What lingers is dropped, but each chunk still costs the event loop: past the cap, cut at once.
    let chunksLeft = chunkCapOf(limitOf(req).maxBytes);
    req
      .on('data', () => {
        chunksLeft -= 1;
        if (chunksLeft < 0) req.socket.destroy();
      })
      .once('end', () => clearTimeout(cut));
  }

  /** Answers UNREADABLE to a request whose body is over (read, or cut short). */
  const unreadable = (res: ServerResponse) =>
    void res
      .writeHead(UNREADABLE.status, { ...securityHeaders, 'Content-Type': UNREADABLE.contentType })
      .end(UNREADABLE.body);

  /**
   * The body of `req`, read whole and within its route's cap, its bytes counted against the budget
   * (`bodies`) as they arrive until the answer ends, within BODY_IDLE_MS between bytes and, when
   * given, `deadlineMs` in all; or undefined once `res` has been answered instead: 413 (the cap), 503
   * (the budget: at once when the declared length cannot fit), 408 (the body stopped arriving) or 400
   * (cut short: the client went away, or sent less than its Content-Length; or sent in more chunks
   * than chunkCapOf allows).
   * @param pool the pool the body counts against: its route's (app/server/body-limit.server.ts), or
   *   the skill's for a call admitted with its secret.
   */
  async function read(
    req: IncomingMessage,
    res: ServerResponse,
    { pool, deadlineMs }: { pool?: BodyPoolName; deadlineMs?: number } = {},
  ): Promise<Uint8Array<ArrayBuffer> | undefined> {
    const limit = limitOf(req);
    const hold = bodies.open(pool ?? limit.pool, clientOf(req));
    res.once('close', hold.release);
    const declared = Number(req.headers['content-length']);
    if (declared <= limit.maxBytes && !hold.fits(declared)) return void refuse(req, res, busy());
    const stream = { headers: new Headers(), body: req.iterator({ destroyOnReturn: false }) };
    if (req.headers['content-length']) stream.headers.set('content-length', req.headers['content-length']);
    try {
      const read = await readBodyUpTo(stream, limit.maxBytes, {
        idleMs: BODY_IDLE_MS,
        deadlineMs,
        maxChunks: chunkCapOf(limit.maxBytes),
        admit: hold.take,
      });
      if (read === null) return void refuse(req, res, tooLarge(req));
      return read;
    } catch (error) {
      if (!(error instanceof BodyStopped)) return unreadable(res);
      if (error.reason === 'refused') return void refuse(req, res, busy());
      if (error.reason === 'fragmented') return void refuse(req, res, FRAGMENTED, { coming: false });
      return void refuse(req, res, TIMED_OUT, { coming: false });
    }
  }

  /**
   * Answers `Expect: 100-continue` (curl's way with a large body): a declared body over its cap,
   * or one the budget cannot take now, is refused before the client sends it (true); otherwise
   * nothing is answered (false), and the client is to be told to go on.
   */
  function refusedBeforeContinue(req: IncomingMessage, res: ServerResponse): boolean {
    const declared = Number(req.headers['content-length']);
    if (declared > limitOf(req).maxBytes) refuse(req, res, tooLarge(req), { coming: false });
    // (A body of no declared length, chunked, is counted as it comes.)
    else if (Number.isFinite(declared) && !bodies.open(limitOf(req).pool, clientOf(req)).fits(declared)) {
      refuse(req, res, busy(), { coming: false });
    } else return false;
    return true;
  }

  return { read, refuse, unreadable, refusedBeforeContinue };
}
