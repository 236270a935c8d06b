/**
 * Reading GBIS v2 answers (docs/gbis.md §Envelope and §Quirks): raw text + HTTP
 * status in, normalized items out, or a FeedError saying why not. An envelope problem is always an
 * error; an item that does not fit its schema fails the whole list in parseList (discovery) but is
 * only left out and reported in parseArrivalList / parseLocationList (the poll decides, per
 * route). Pure: no I/O, no clock.
 *
 * Both JSON and XML bodies are accepted, because the portal answers errors in either format
 * whatever `format` asked for. Normalization (the zod field helpers below): "" or a missing key
 * becomes null, numeric strings become numbers, ids become whitespace-free strings, text is trimmed
 * (mobileNo has a leading space), and a one-element list sent as a bare object or an empty list
 * sent as "" both become arrays.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { FeedError } from '../snapshot';
import type { Arrival } from '../../../../contract/feed-snapshot';

// ── field helpers ─────────────────────────────────────────────────────────────────────────────

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A numeric GBIS field: number or numeric string ("64"); "" or missing → null; other strings fail. */
export const gbisNumber = z.preprocess(
  (value) => (isBlank(value) ? null : typeof value === 'string' ? Number(value.trim()) : value),
  z.number().finite().nullable(),
);

/** Blank → null; a number → its string; a string → `clean(string)`; anything else as is (and the schema fails). */
const textual = (clean: (text: string) => string) => (value: unknown) =>
  isBlank(value) ? null : typeof value === 'number' ? String(value) : typeof value === 'string' ? clean(value) : value;

/** A text GBIS field, trimmed; a number (routeName 51) becomes its string; "" or missing → null. */
export const gbisText = z.preprocess(
  textual((text) => text.trim()),
  z.string().nullable(),
);

/** An optional GBIS id (vehId, stationId …): number or digit string, whitespace removed; "" or missing → null. */
export const gbisOptionalId = z.preprocess(
  textual((text) => text.replace(/\s+/g, '')),
  z.string().regex(/^\d+$/, 'not a numeric id').nullable(),
);

/** A required GBIS id: as gbisOptionalId, but "" or missing fails. */
export const gbisId = gbisOptionalId.refine((id): id is string => id !== null, 'missing id');

/** A required GBIS number: as gbisNumber, but "" or missing fails. */
export const gbisRequiredNumber = gbisNumber.refine((n): n is number => n !== null, 'missing number');

// ── item schemas ──────────────────────────────────────────────────────────────────────────────

const VehicleSchema = z.object({
  predictTime: gbisNumber,
  predictTimeSec: gbisNumber,
  locationNo: gbisNumber,
  stationNm: gbisText,
  plateNo: gbisText,
  vehId: gbisOptionalId,
  lowPlate: gbisNumber,
  remainSeatCnt: gbisNumber,
  crowded: gbisNumber,
});
const VEHICLE_FIELDS = Object.keys(VehicleSchema.shape);

/** One of the next two vehicles of an arrival item: an Arrival (field docs there) without its routeNo. */
type ArrivalVehicle = Omit<Arrival, 'routeNo'>;

function toVehicle(v: z.infer<typeof VehicleSchema>): ArrivalVehicle | null {
  // NOTE: a route with no bus coming still appears (flag PASS, every vehicle field ""), and a single
  // bus leaves every suffix-2 field "". A vehicle without a predicted time or a stop count cannot be
  // shown, so it is dropped.
  const predictTimeSec = v.predictTimeSec ?? (v.predictTime === null ? null : v.predictTime * 60);
  if (predictTimeSec === null || v.locationNo === null) return null;
  return {
    predictTimeSec,
    locationNo: v.locationNo,
    stationName: v.stationNm,
    plateNo: v.plateNo,
    vehId: v.vehId,
    lowPlate: v.lowPlate,
    // GBIS sends -1 when the seat count is unknown, and crowded 0 on route types without it.
    remainSeatCnt: v.remainSeatCnt !== null && v.remainSeatCnt >= 0 ? v.remainSeatCnt : null,
    crowded: v.crowded ? v.crowded : null,
  };
}

/** Splits the suffixed per-vehicle keys (predictTime1 …, predictTime2 …) into two vehicle objects. */
function withVehicles(item: unknown): unknown {
  if (typeof item !== 'object' || item === null) return item;
  const record = item as Record<string, unknown>;
  const vehicle = (suffix: 1 | 2) => Object.fromEntries(VEHICLE_FIELDS.map((f) => [f, record[`${f}${suffix}`]]));
  return { ...record, vehicle1: vehicle(1), vehicle2: vehicle(2) };
}

/**
 * A getBusArrivalListv2 item: one route at the stop, with its next vehicles (0–2, nearest first as GBIS
 * sends them).
 */
const ArrivalItemSchema = z.preprocess(
  withVehicles,
  z
    .object({
      routeId: gbisId,
      routeName: gbisText,
      routeTypeCd: gbisNumber,
      routeDestName: gbisText,
      stationId: gbisOptionalId,
      /** Which pass of the route at this stop (= stationSeq on the route). */
      staOrder: gbisNumber,
      /** RUN/PASS running, STOP finished for the day, WAIT waiting at the turnaround. */
      flag: gbisText,
      vehicle1: VehicleSchema,
      vehicle2: VehicleSchema,
    })
    .transform(({ vehicle1, vehicle2, ...route }) => ({
      ...route,
      vehicles: [toVehicle(vehicle1), toVehicle(vehicle2)].filter((v): v is ArrivalVehicle => v !== null),
    })),
);
export type ArrivalItem = z.infer<typeof ArrivalItemSchema>;

/** A getBusLocationListv2 item (also the v1 XML shape, which lacks vehId/stateCd/crowded). */
const LocationItemSchema = z.object({
  routeId: gbisId,
  /** Current or last stop and its order on the route. */
  stationId: gbisId,
  stationSeq: gbisRequiredNumber,
  plateNo: gbisText,
  vehId: gbisOptionalId,
  lowPlate: gbisNumber,
  remainSeatCnt: gbisNumber,
  crowded: gbisNumber,
  stateCd: gbisNumber,
});
export type LocationItem = z.infer<typeof LocationItemSchema>;

// ── envelope ──────────────────────────────────────────────────────────────────────────────────

const xmlParser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true });

/** JSON or XML text → plain object tree; XML leaves are strings, repeated elements arrays. */
function decode(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.startsWith('<')) {
    if (XMLValidator.validate(trimmed) !== true)
      throw new FeedError('body', `unreadable XML body: ${preview(trimmed)}`);
    return xmlParser.parse(trimmed);
  }
  try {
    return JSON.parse(trimmed);
  } catch {
    throw new FeedError('body', `body is neither JSON nor XML: ${preview(trimmed)}`);
  }
}

const preview = (text: string) => JSON.stringify(text.slice(0, 80));

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** Portal codes (docs/gbis.md §Envelope): the name may sit in errMsg or in returnAuthMsg. */
const PORTAL_CODES: Record<string, string> = {
  '01': 'service error',
  '22': 'daily quota exceeded',
  '30': 'service key not registered',
};

const PortalHeaderSchema = z.object({ errMsg: gbisText, returnAuthMsg: gbisText, returnReasonCode: gbisText });

function portalError(header: unknown): FeedError {
  const parsed = PortalHeaderSchema.safeParse(asRecord(header) ?? {});
  const {
    errMsg,
    returnAuthMsg,
    returnReasonCode: code,
  } = parsed.success ? parsed.data : { errMsg: null, returnAuthMsg: null, returnReasonCode: null };
  // An UPPER_SNAKE name (SERVICE_KEY_IS_NOT_REGISTERED_ERROR) beats the generic "SERVICE ERROR".
  const name =
    [errMsg, returnAuthMsg].find((m) => m !== null && /^[A-Z][A-Z_]*_[A-Z]+$/.test(m)) ?? errMsg ?? returnAuthMsg;
  const meaning = code !== null && PORTAL_CODES[code] ? ` (${PORTAL_CODES[code]})` : '';
  return new FeedError('portal', `portal error ${code ?? '?'} ${name ?? 'unnamed'}${meaning}`);
}

const MsgHeaderSchema = z.object({ resultCode: gbisRequiredNumber, resultMessage: gbisText });

/**
 * Reads one GBIS answer and returns the raw items under `msgBody[key]` as an array.
 *
 * - HTTP status outside 200–299 → FeedError('http').
 * - Portal gateway error (`OpenAPI_ServiceResponse.cmmMsgHeader`, JSON or XML, usually HTTP 200) →
 *   FeedError('portal', "portal error <returnReasonCode> <name> (<meaning>)"); 22 = daily quota,
 *   30 = key not registered, 01 = service error.
 * - msgHeader.resultCode 0 → the items ("" or an absent key → []; a bare object → [object]);
 *   4 (no result, msgBody absent) → []; 1, 2 and any other code → FeedError('gbis').
 * - A `response` without msgHeader (reported outside service hours, unverified) → FeedError('gbis'),
 *   not "no bus" (docs/gbis.md §Envelope).
 * - Anything else (not JSON/XML, no `response`, resultCode 0 without msgBody) → FeedError('body').
 */
function readEnvelope(text: string, status: number, key: string): unknown[] {
  if (status < 200 || status > 299) throw new FeedError('http', `HTTP ${status}`);
  const doc = asRecord(decode(text));
  const portal = asRecord(doc?.OpenAPI_ServiceResponse);
  if (portal) throw portalError(portal.cmmMsgHeader);
  const response = asRecord(doc?.response);
  if (!response) throw new FeedError('body', `no GBIS response envelope: ${preview(text.trim())}`);
  if (response.msgHeader === undefined) throw new FeedError('gbis', 'GBIS answer without msgHeader');
  const header = MsgHeaderSchema.safeParse(asRecord(response.msgHeader) ?? {});
  if (!header.success) throw new FeedError('body', `unreadable msgHeader: ${header.error.issues[0]?.message}`);
  const { resultCode, resultMessage } = header.data;
  if (resultCode === 4) return [];
  if (resultCode !== 0) throw new FeedError('gbis', `GBIS resultCode ${resultCode}: ${resultMessage ?? 'no message'}`);
  if (response.msgBody === undefined) throw new FeedError('body', 'resultCode 0 without msgBody');
  const list = asRecord(response.msgBody)?.[key];
  if (isBlank(list)) return [];
  return Array.isArray(list) ? list : [list];
}

/**
 * An item of `msgBody[key]` that does not fit its schema. `message` names the item by its route
 * when it names one ("busArrivalList item of route 5600 (routeId 228000999): vehicle1.predictTimeSec:
 * Expected number, received nan"), else by its index ("busStationList[3]: stationId: missing id"),
 * so the same broken item reads the same from poll to poll.
 */
export type ItemProblem = {
  message: string;
  /** The item's own routeId and routeName, each read alone (null when absent or unreadable): whose item it is. */
  routeId: string | null;
  routeName: string | null;
};

/** A GBIS list with its valid items (in GBIS order) and a problem per item left out as invalid. */
export type ParsedList<T> = { items: T[]; problems: ItemProblem[] };

function problemOf(key: string, index: number, item: unknown, error: z.ZodError): ItemProblem {
  const record = asRecord(item) ?? {};
  const read = <T>(schema: z.ZodType<T | null, z.ZodTypeDef, unknown>, value: unknown) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : null;
  };
  const routeId = read(gbisOptionalId, record.routeId);
  const routeName = read(gbisText, record.routeName);
  const where =
    routeId === null && routeName === null
      ? `${key}[${index}]`
      : `${key} item of route ${routeName ?? '?'} (routeId ${routeId ?? '?'})`;
  const issue = error.issues[0];
  const field = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { message: `${where}: ${field}${issue?.message ?? 'invalid'}`, routeId, routeName };
}

/**
 * Reads one GBIS answer (see readEnvelope for the errors, all thrown) and validates each item of
 * `msgBody[key]` with `schema`. An item that does not fit is left out and reported in `problems`:
 * whether that may pass is the caller's call (GbisSource fails the poll when it is one of ours).
 */
function readList<S extends z.ZodTypeAny>(
  text: string,
  status: number,
  key: string,
  schema: S,
): ParsedList<z.output<S>> {
  const list: ParsedList<z.output<S>> = { items: [], problems: [] };
  readEnvelope(text, status, key).forEach((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) list.items.push(parsed.data);
    else list.problems.push(problemOf(key, index, item, parsed.error));
  });
  return list;
}

/**
 * Reads one GBIS answer (see readEnvelope for the errors) and validates every item of
 * `msgBody[key]` with `schema`, strictly: an item that does not fit → FeedError('body',
 * ItemProblem.message). For lookups where any bad item makes the answer unusable (discovery).
 */
export function parseList<S extends z.ZodTypeAny>(text: string, status: number, key: string, schema: S): z.output<S>[] {
  const { items, problems } = readList(text, status, key, schema);
  if (problems.length > 0) throw new FeedError('body', problems[0].message);
  return items;
}

/**
 * getBusArrivalListv2 → arrival items (msgBody.busArrivalList), invalid items left out and listed
 * in `problems`; envelope errors thrown as readEnvelope.
 */
export function parseArrivalList(text: string, status: number): ParsedList<ArrivalItem> {
  return readList(text, status, 'busArrivalList', ArrivalItemSchema);
}

/**
 * getBusLocationListv2 (and the v1 XML form) → vehicle items (msgBody.busLocationList), invalid
 * items left out and listed in `problems`; envelope errors thrown as readEnvelope.
 */
export function parseLocationList(text: string, status: number): ParsedList<LocationItem> {
  return readList(text, status, 'busLocationList', LocationItemSchema);
}
