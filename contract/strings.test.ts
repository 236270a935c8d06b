/**
 * Every string of every schema the contract exports goes through contract/strings.ts: this walks
 * them all (each module of contract/, each exported zod schema, down through objects, arrays,
 * records, unions and wrappers) and feeds each string field a NUL. A field written with a bare
 * z.string() fails here, whichever module it is in.
 */
import { readdirSync } from 'node:fs';
import { z, ZodFirstPartyTypeKind, type ZodTypeAny } from 'zod';
import { AdApplicationSchema, AdBulkRequestSchema, AdEditSchema, RejectRequestSchema } from './ads';
import { ImageUploadRequestSchema } from './ads';
import { LoginRequestSchema, ServiceNoticeSchema, SetupRequestSchema } from './admin';
import { GbisConfigSchema } from './gbis';
import { InquiryReplySchema, InquiryRequestSchema } from './inquiries';
import { freeText, isOneLine, oneLineText, text, TEXT_MESSAGES } from './strings';

type Field = { path: string; schema: ZodTypeAny };

/** `schema` without its wrappers: what it parses a value with first. */
function core(schema: ZodTypeAny): ZodTypeAny {
  const def = schema._def as { typeName: ZodFirstPartyTypeKind } & Record<string, unknown>;
  switch (def.typeName) {
    case ZodFirstPartyTypeKind.ZodOptional:
    case ZodFirstPartyTypeKind.ZodNullable:
    case ZodFirstPartyTypeKind.ZodDefault:
    case ZodFirstPartyTypeKind.ZodCatch:
    case ZodFirstPartyTypeKind.ZodReadonly:
      return core(def.innerType as ZodTypeAny);
    case ZodFirstPartyTypeKind.ZodBranded:
      return core(def.type as ZodTypeAny);
    case ZodFirstPartyTypeKind.ZodEffects:
      return core(def.schema as ZodTypeAny);
    case ZodFirstPartyTypeKind.ZodPipeline:
      return core(def.in as ZodTypeAny);
    default:
      return schema;
  }
}

/** The string fields under `schema` (a field is a node whose core is a string), each once. */
function stringFields(
  schema: ZodTypeAny,
  path: string,
  found: Map<ZodTypeAny, Field>,
  seen = new Set<ZodTypeAny>(),
): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  if (core(schema) instanceof z.ZodString) {
    if (!found.has(schema)) found.set(schema, { path, schema });
    return;
  }
  const def = schema._def as { typeName: ZodFirstPartyTypeKind } & Record<string, unknown>;
  const walk = (inner: unknown, at = path): void => stringFields(inner as ZodTypeAny, at, found, seen);
  switch (def.typeName) {
    case ZodFirstPartyTypeKind.ZodObject:
      for (const [key, value] of Object.entries((schema as z.AnyZodObject).shape)) walk(value, `${path}.${key}`);
      return;
    case ZodFirstPartyTypeKind.ZodArray:
      return walk(def.type, `${path}[]`);
    case ZodFirstPartyTypeKind.ZodRecord:
      walk(def.keyType, `${path}{key}`);
      return walk(def.valueType, `${path}{}`);
    case ZodFirstPartyTypeKind.ZodUnion:
    case ZodFirstPartyTypeKind.ZodDiscriminatedUnion:
      for (const option of def.options as ZodTypeAny[]) walk(option);
      return;
    case ZodFirstPartyTypeKind.ZodIntersection:
      walk(def.left);
      return walk(def.right);
    case ZodFirstPartyTypeKind.ZodTuple:
      (def.items as ZodTypeAny[]).forEach((item, index) => walk(item, `${path}[${index}]`));
      return;
    case ZodFirstPartyTypeKind.ZodLazy:
      return walk((def.getter as () => ZodTypeAny)());
    case ZodFirstPartyTypeKind.ZodPipeline:
      walk(def.in);
      return walk(def.out);
    case ZodFirstPartyTypeKind.ZodOptional:
    case ZodFirstPartyTypeKind.ZodNullable:
    case ZodFirstPartyTypeKind.ZodDefault:
    case ZodFirstPartyTypeKind.ZodCatch:
    case ZodFirstPartyTypeKind.ZodReadonly:
      return walk(def.innerType);
    case ZodFirstPartyTypeKind.ZodBranded:
      return walk(def.type);
    case ZodFirstPartyTypeKind.ZodEffects:
      return walk(def.schema);
  }
}

/** Every exported zod schema of every module of contract/, by "module.export". */
async function contractSchemas(): Promise<[string, ZodTypeAny][]> {
  const dir = new URL('.', import.meta.url);
  const modules = readdirSync(dir).filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name));
  const schemas: [string, ZodTypeAny][] = [];
  for (const name of modules) {
    // The modules are found by listing the folder, so their names are known at run time only.
    // eslint-disable-next-line no-restricted-syntax
    const exports = (await import(/* @vite-ignore */ new URL(name, dir).href)) as Record<string, unknown>;
    for (const [key, value] of Object.entries(exports)) {
      if (value instanceof z.ZodType) schemas.push([`${name}:${key}`, value]);
      // A record of fields (adApplicationFields) counts as its fields.
      else if (value && typeof value === 'object' && Object.values(value).some((v) => v instanceof z.ZodType)) {
        for (const [field, schema] of Object.entries(value)) {
          if (schema instanceof z.ZodType) schemas.push([`${name}:${key}.${field}`, schema]);
        }
      }
    }
  }
  return schemas;
}

const isRefusal = (message: string | undefined) =>
  message === TEXT_MESSAGES.invalidCharacter || !!message?.endsWith(TEXT_MESSAGES.oneLine(''));

/** The first message `schema` gives `value`, or null when it takes it. */
function firstMessage(schema: ZodTypeAny, value: unknown): string | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? null : parsed.error.issues[0].message;
}

describe('every string of every contract schema', () => {
  it('refuses a NUL in each string field, with the refusal as its first message', async () => {
    const found = new Map<ZodTypeAny, Field>();
    for (const [name, schema] of await contractSchemas()) stringFields(schema, name, found);
    const fields = [...found.values()];
    // The walk reaches the forms' and bodies' fields, the answers' and the nested ones.
    expect(fields.length).toBeGreaterThan(100);
    const paths = fields.map((field) => field.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'ads.ts:adApplicationFields.title',
        'ads.ts:adApplicationFields.applicantPhone',
        'admin.ts:LoginRequestSchema.username',
        'inquiries.ts:InquiryRequestSchema.content',
        'gbis.ts:TimetableSchema.first',
        'skill.ts:SkillRequestSchema.action.params{}',
      ]),
    );
    const accepted = fields.filter((field) => !isRefusal(firstMessage(field.schema, 'a\u0000b') ?? undefined));
    expect(accepted.map((field) => field.path)).toEqual([]);
  });
});

/** The fields of the forms and api bodies that are free text (textareas); every other string field is one line. */
const FREE_TEXT_FIELDS = new Set(['content', 'contentForManager', 'reason', 'reply', 'text', 'textEn']);

describe('the one-line fields of the forms and api bodies', () => {
  const bodies: [string, ZodTypeAny][] = [
    ['AdApplicationSchema', AdApplicationSchema],
    ['AdEditSchema', AdEditSchema],
    ['AdBulkRequestSchema', AdBulkRequestSchema],
    ['RejectRequestSchema', RejectRequestSchema],
    ['ImageUploadRequestSchema', ImageUploadRequestSchema],
    ['InquiryRequestSchema', InquiryRequestSchema],
    ['InquiryReplySchema', InquiryReplySchema],
    ['LoginRequestSchema', LoginRequestSchema],
    ['SetupRequestSchema', SetupRequestSchema],
    ['ServiceNoticeSchema', ServiceNoticeSchema],
    ['GbisConfigSchema', GbisConfigSchema],
  ];
  const found = new Map<ZodTypeAny, Field>();
  for (const [name, schema] of bodies) stringFields(schema, name, found);
  const fields = [...found.values()];
  const isFree = (field: Field) => FREE_TEXT_FIELDS.has(field.path.split('.').at(-1)!);
  const oneLine = fields.filter((field) => !isFree(field));
  // The login password is compared, never shown: only its NUL is refused (LoginRequestSchema).
  const lines = oneLine.filter((field) => field.path !== 'LoginRequestSchema.password');

  it('are found: titles, names, e-mails, the username, the GBIS ids', () => {
    expect(lines.map((field) => field.path)).toEqual(
      expect.arrayContaining([
        'AdApplicationSchema.title',
        'AdApplicationSchema.applicantName',
        'AdApplicationSchema.applicantEmail',
        'AdEditSchema.title',
        'InquiryRequestSchema.email',
        'SetupRequestSchema.username',
        'ServiceNoticeSchema.title',
        expect.stringMatching(/^GbisConfigSchema\.routes\.\d+\.routeId$/),
      ]),
    );
    expect(fields.filter(isFree).map((field) => field.path)).toEqual(
      expect.arrayContaining([
        'InquiryRequestSchema.content',
        'ServiceNoticeSchema.text',
        'RejectRequestSchema.reason',
      ]),
    );
  });

  it.each([
    ['LF', '\n'],
    ['CR', '\r'],
    ['TAB', '\t'],
    ['ESC', '\u001b'],
    ['DEL', '\u007f'],
    ['NEL (C1)', '\u0085'],
    ['LINE SEPARATOR', '\u2028'],
    ['PARAGRAPH SEPARATOR', '\u2029'],
    ['RIGHT-TO-LEFT OVERRIDE', '\u202e'],
    ['LEFT-TO-RIGHT EMBEDDING', '\u202a'],
    ['FIRST STRONG ISOLATE', '\u2068'],
  ])('refuse a %s inside them, saying so first', (_name, character) => {
    const value = `카페${character}입금 계좌: 사기은행 999-99-9999`;
    const accepted = lines.filter((field) => {
      const message = firstMessage(field.schema, value);
      return !message?.endsWith(TEXT_MESSAGES.oneLine(''));
    });
    expect(accepted.map((field) => field.path)).toEqual([]);
  });

  it("name the field in the message, in the field's own word", () => {
    expect(firstMessage(AdApplicationSchema, { type: 'web', title: '카페\n입금 계좌' })).toBe(
      '제목에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.',
    );
    expect(firstMessage(LoginRequestSchema, { username: 'ad\u0000min', password: 'x' })).toBe(
      '아이디에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.',
    );
    expect(firstMessage(InquiryRequestSchema, { content: '문의', email: 'a@example.com\r\nBcc: b@example.com' })).toBe(
      '이메일에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.',
    );
  });

  it('free text keeps its line breaks and tabs and refuses the other control characters', () => {
    const free = fields.filter(isFree);
    for (const field of free) {
      expect([field.path, firstMessage(field.schema, '첫 줄\r\n둘째 줄\n\t들여쓴 줄')]).toEqual([field.path, null]);
      expect([field.path, firstMessage(field.schema, '벨\u0007소리')]).toEqual([
        field.path,
        TEXT_MESSAGES.invalidCharacter,
      ]);
      expect([field.path, firstMessage(field.schema, 'N\u0000UL')]).toEqual([
        field.path,
        TEXT_MESSAGES.invalidCharacter,
      ]);
    }
  });
});

describe('the builders', () => {
  it('text refuses NUL only, oneLineText every control character and bidi control, freeText all but TAB, LF, CR', () => {
    expect(text().safeParse('줄\n바꿈\u202e').success).toBe(true);
    expect(text().safeParse('\u0000').success).toBe(false);
    expect(oneLineText('제목').safeParse('외대 앞 카페 ☕ 10% 할인').success).toBe(true);
    expect(oneLineText('제목').safeParse('카페\u2066').success).toBe(false);
    expect(freeText().safeParse('a\tb\r\nc').success).toBe(true);
    expect(freeText().safeParse('a\u009bb').success).toBe(false);
    expect(isOneLine('한 줄')).toBe(true);
    expect(isOneLine('두\n줄')).toBe(false);
  });
});
