/**
 * Reading GBIS v2 answers (../shared/reference/gbis.md, Envelope and Quirks): raw text + HTTP
 * status in, normalized items out, or a FeedError saying why not. Pure: no I/O, no clock.
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

// ── field helpers ─────────────────────────────────────────────────────────────────────────────

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A numeric GBIS field: number or numeric string ("64"); "" or missing → null; other strings fail. */
export const gbisNumber = z.preprocess(
  (value) => (isBlank(value) ? null : typeof value === 'string' ? Number(value.trim()) : value),
  z.number().finite().nullable(),
);

/** A text GBIS field, trimmed; a number (routeName 51) becomes its string; "" or missing → null. */
export const gbisText = z.preprocess(
  (value) =>
    isBlank(value)
      ? null
      : typeof value === 'number'
        ? String(value)
        : typeof value === 'string'
          ? value.trim()
          : value,
  z.string().nullable(),
);

/** An optional GBIS id (vehId, stationId …): number or digit string, whitespace removed; "" or missing → null. */
export const gbisOptionalId = z.preprocess(
  (value) =>
    isBlank(value)
      ? null
      : typeof value === 'number'
        ? String(value)
        : typeof value === 'string'
          ? value.replace(/\s+/g, '')
          : value,
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
  stateCd: gbisNumber,
});
const VEHICLE_FIELDS = Object.keys(VehicleSchema.shape);

/** One of the next two vehicles of an arrival item (its suffix-1 or suffix-2 fields), normalized. */
export type ArrivalVehicle = {
  /** Seconds until arrival: GBIS predictTimeSec, else predictTime (minutes) × 60. */
  predictTimeSec: number;
  /** Stops away (locationNo). */
  locationNo: number;
  /** Where the vehicle is now (stationNm). */
  stationName: string | null;
  plateNo: string | null;
  vehId: string | null;
  lowPlate: number | null;
  /** Raw GBIS value: -1 means unknown. */
  remainSeatCnt: number | null;
  /** Raw GBIS value 1–4; 0 or null on route types without it. */
  crowded: number | null;
  stateCd: number | null;
};

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
    remainSeatCnt: v.remainSeatCnt,
    crowded: v.crowded,
    stateCd: v.stateCd,
  };
}

/** Splits the suffixed per-vehicle keys (predictTime1 …, predictTime2 …) into two vehicle objects. */
function withVehicles(item: unknown): unknown {
  if (typeof item !== 'object' || item === null) return item;
  const record = item as Record<string, unknown>;
  const vehicle = (suffix: 1 | 2) => Object.fromEntries(VEHICLE_FIELDS.map((f) => [f, record[`${f}${suffix}`]]));
  return { ...record, vehicle1: vehicle(1), vehicle2: vehicle(2) };
}

/** A getBusArrivalListv2 item: one route at the stop, with its next vehicles (0–2, nearest first as GBIS sends them). */
export const ArrivalItemSchema = z.preprocess(
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
export const LocationItemSchema = z.object({
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

/** Portal codes of gbis.md (Envelope): the name may sit in errMsg or in returnAuthMsg. */
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
 * - A `response` without msgHeader (reported outside service hours, unverified) → FeedError('gbis'):
 *   the safe reading. Taking it as "no bus" would show a confident empty board from an answer we
 *   do not understand; as an error the last snapshot is kept and marked stale instead.
 * - Anything else (not JSON/XML, no `response`, resultCode 0 without msgBody) → FeedError('body').
 */
export function readEnvelope(text: string, status: number, key: string): unknown[] {
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
 * Reads one GBIS answer (see readEnvelope for the errors) and validates every item of
 * `msgBody[key]` with `schema`. An item that does not fit → FeedError('body', "<key>[i].<field>: …").
 */
export function parseList<S extends z.ZodTypeAny>(text: string, status: number, key: string, schema: S): z.output<S>[] {
  return readEnvelope(text, status, key).map((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw new FeedError('body', `${key}[${index}].${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  });
}

/** getBusArrivalListv2 → arrival items (msgBody.busArrivalList); errors as parseList. */
export function parseArrivalList(text: string, status: number): ArrivalItem[] {
  return parseList(text, status, 'busArrivalList', ArrivalItemSchema);
}

/** getBusLocationListv2 (and the v1 XML form) → vehicle items (msgBody.busLocationList); errors as parseList. */
export function parseLocationList(text: string, status: number): LocationItem[] {
  return parseList(text, status, 'busLocationList', LocationItemSchema);
}
