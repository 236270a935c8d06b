/**
 * The database schema (PostgreSQL dialect; the same for PGlite and PostgreSQL), one module per part.
 * Migrations under drizzle/ are generated from it with `npm run db:generate`, committed, and applied
 * at start-up: one schema, one migration stream.
 */
export * from './bus';
export * from './ads';
export * from './admin';
export * from './mail';
export * from './gbis';
export * from './reminders';
