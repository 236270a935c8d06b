/** The api's logger: console by default, a recording stub in tests. */
export type Logger = Pick<Console, 'info' | 'warn' | 'error'>;

export const consoleLogger: Logger = console;
