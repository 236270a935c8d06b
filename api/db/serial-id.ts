/** Ids of serial (PostgreSQL integer) columns, checked before a query (a larger one would fail it). */

/** The largest id of a serial (PostgreSQL integer) column: a larger one names no row, and would fail the query. */
const MAX_SERIAL_ID = 2_147_483_647;

/** Whether `id` can name a row of a serial column (1 … MAX_SERIAL_ID). */
export function isSerialId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= MAX_SERIAL_ID;
}
