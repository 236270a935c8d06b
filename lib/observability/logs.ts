/**
 * The process's log (docs/deploy.md §Logs), through pino: one JSON object per line (`level`, `time`,
 * `msg`, `component`, `reqId`, `err`) for a log system, or human-readable lines (pino-pretty) on a
 * terminal or with LOG_FORMAT=pretty. Every part of the server logs through `console` (the api's
 * Logger is console's info/warn/error); `routeConsoleToLogs` sends those calls through pino, so one
 * format holds for every line, a library's too. A line's `[component]` prefix (`[bus feed] …`)
 * becomes its `component`; a RequestTag argument (forRequest) its `reqId`; an Error argument its
 * `err` (type, message, stack).
 */
import { randomUUID } from 'node:crypto';
import { format } from 'node:util';
import { pino, type Logger as Pino, type DestinationStream } from 'pino';
import PinoPretty from 'pino-pretty';
import { isRequestTag } from './request-tag';

/** LOG_FORMAT and LOG_LEVEL as the entries parse them (contract/observability.ts). */
export type LogSettings = { LOG_FORMAT?: 'json' | 'pretty'; LOG_LEVEL: 'debug' | 'info' | 'warn' | 'error' };

/** What an incoming X-Request-Id may be: a proxy's UUID or trace id, nothing a log line could be forged with. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The id of a request: the X-Request-Id a trusted proxy set (`trusted`: TRUST_PROXY > 0, the same
 * trust that reads X-Forwarded-For), when it is a plain id; else a new UUID.
 */
export function requestIdOf(header: string | string[] | undefined, trusted: boolean): string {
  return trusted && typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/** Whether lines are human-readable: LOG_FORMAT, else whether stdout is a terminal. */
export function logsArePretty(settings: Pick<LogSettings, 'LOG_FORMAT'>, stdout = process.stdout): boolean {
  return settings.LOG_FORMAT ? settings.LOG_FORMAT === 'pretty' : stdout.isTTY === true;
}

/**
 * The pino logger of `settings`, writing to `destination` (default stdout: pino's own, or
 * pino-pretty's on it when pretty).
 */
export function createLogs(settings: LogSettings, destination?: DestinationStream): Pino {
  const options = {
    level: settings.LOG_LEVEL,
    base: undefined, // no pid and hostname on every line: the supervisor knows them
    formatters: { level: (label: string) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: pino.stdSerializers.err },
  };
  if (logsArePretty(settings)) {
    const pretty = PinoPretty({
      destination: destination ?? 1,
      sync: true,
      // The lines as a person reads them: `[component] message`, then an error's stack.
      ignore: 'time,level,component,reqId',
      messageFormat: '{if component}[{component}] {end}{msg}',
      colorize: false,
    });
    return pino(options, pretty);
  }
  return pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
}

/** `[component] rest` → its component and the rest. */
const PREFIX = /^\[([^\]]+)\]\s*/;

/**
 * A console method's arguments as one pino call at `level`: the message formatted as console
 * formats it (util.format), without its `[component]` prefix; the first Error as `err`.
 */
function logAs(logs: Pino, level: 'debug' | 'info' | 'warn' | 'error', args: unknown[]): void {
  const err = args.find((arg): arg is Error => arg instanceof Error);
  const tag = args.find(isRequestTag);
  const message = format(...args.filter((arg) => arg !== err && arg !== tag && arg !== undefined));
  const prefix = PREFIX.exec(message);
  const fields: Record<string, unknown> = {};
  if (prefix) fields.component = prefix[1];
  if (tag) fields.reqId = tag.reqId;
  if (err) fields.err = err;
  logs[level](fields, prefix ? message.slice(prefix[0].length) : message);
}

/**
 * Sends console.debug, log, info, warn and error through `logs` (createLogs) from now on: a
 * production process's every line then has the chosen format. Call once, as the entry starts.
 */
export function routeConsoleToLogs(logs: Pino): void {
  console.debug = (...args: unknown[]) => logAs(logs, 'debug', args);
  console.log = (...args: unknown[]) => logAs(logs, 'info', args);
  console.info = (...args: unknown[]) => logAs(logs, 'info', args);
  console.warn = (...args: unknown[]) => logAs(logs, 'warn', args);
  console.error = (...args: unknown[]) => logAs(logs, 'error', args);
}

/** createLogs, then routeConsoleToLogs: what an entry does first. */
export function startLogs(settings: LogSettings): void {
  routeConsoleToLogs(createLogs(settings));
}
