/**
 * /admin-only/gbis "버스 정보 설정" (docs/gbis.md §Setup page): the GBIS ids the poller uses and
 * where they come from (env overrides > the saved setup > the api's defaults), discovery with the
 * api's GBIS key (its calls counted in today's quota, the count shown), and one form to confirm or
 * correct every value and save it; the poller uses it from its next poll. One zod schema for the
 * form, checked by conform in the browser and again by the action; it works without JavaScript.
 */
import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { json, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation, type MetaFunction } from '@remix-run/react';
import { z } from 'zod';
import {
  GbisConfigSchema,
  GbisIdSchema,
  GbisRouteSchema,
  type GbisConfig,
  type GbisDiscovery,
  type GbisSetup,
} from '../../contract/gbis';
import { DAY_TYPE_NAMES, DAY_TYPES, ROUTE_NOS, STOP_NAMES } from '../../contract/transit';
import { SubmitButton, TextField } from '~/components/forms';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { discoverGbis, getGbisSetup, GBIS_NOT_IN_USE, saveGbisSetup } from '~/models/gbis.server';
import { AdminPage } from '~/components/admin/admin-page';
import { DiscoveryResult } from '~/components/admin/discovery-result';
import { LoadFailed } from '~/components/admin/list-states';
import { parseForm, readForm, refusedForm, type FormSpec } from '~/utils/form-data.server';
import { redirectWithFlash, requireAdmin, takeFlash } from '~/models/session.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { formatKstDateTime } from '../../contract/kst';
import { consoleFor } from '../../lib/observability/request-tag';

const PAGE_PATH = '/admin-only/gbis';
const TITLE = '버스 정보 설정';
const SAVED = '버스 정보 설정을 저장했습니다. 다음 수집부터 적용됩니다.';
const SAVE_FAILED = '저장하지 못했습니다. 잠시 후 다시 시도해주세요.';
const LOAD_FAILED = '버스 정보 설정을 불러오지 못했습니다.';
const DISCOVER_FAILED = 'GBIS 조회를 요청하지 못했습니다. 잠시 후 다시 시도해주세요.';

/** An id field: conform sends nothing for an empty one, which means "not set here". */
const FormId = GbisIdSchema.default('');
const FormRouteSchema = GbisRouteSchema.extend({
  routeId: FormId,
  upStaOrder: GbisRouteSchema.shape.upStaOrder.default(null),
});
/** The form's schema: the contract's GbisConfig with empty fields read as unset. */
const GbisFormSchema = GbisConfigSchema.extend({
  routes: z.object(Object.fromEntries(ROUTE_NOS.map((routeNo) => [routeNo, FormRouteSchema]))),
  upStationIds: z.array(FormId).length(STOP_NAMES.up.length),
  downStationIds: z.array(FormId).length(STOP_NAMES.down.length),
  terminusStationId: FormId,
});

/** The form's fields, and the discovery button's intent. */
const FIELDS: FormSpec = { schema: GbisFormSchema, also: ['intent'] };

type ActionData =
  | { intent: 'discover'; discovery: GbisDiscovery; callsSpent: number }
  | { intent: 'discover'; refused: string }
  | { intent: 'save'; result: SubmissionResult<string[]> };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const setup = await loadSetup(context, admin.username);
  const { flash, headers } = await takeFlash(context, admin);
  // The env's names stay on the server: the notice is sent as text, never bundled.
  const notInUse = setup?.feed === 'demo' ? GBIS_NOT_IN_USE : null;
  return json({ flash, setup, notInUse }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const formData = await readForm(request, FIELDS);
  if (!formData) return json<ActionData>({ intent: 'save', result: refusedForm(SAVE_FAILED) }, { status: 400 });
  if (formData.get('intent') === 'discover') {
    try {
      const found = await discoverGbis(context, admin.username);
      return json<ActionData>({ intent: 'discover', ...found }, { status: 'refused' in found ? 409 : 200 });
    } catch (error) {
      rethrowUnlessUpstream(error);
      consoleFor(context.reqId).error('[admin/gbis] discovery did not run:', error.message);
      return json<ActionData>({ intent: 'discover', refused: DISCOVER_FAILED }, { status: 502 });
    }
  }
  const submission = parseForm(formData, GbisFormSchema);
  if (submission.status !== 'success') {
    return json<ActionData>({ intent: 'save', result: submission.reply() }, { status: 400 });
  }
  try {
    await saveGbisSetup(context, admin.username, submission.value as GbisConfig);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin/gbis] the setup was not saved:', error.message);
    const message = error.serverMessage ?? SAVE_FAILED;
    // The api's refusal of the values (4xx) is the admin's to fix; anything else is the service's.
    const status = error.status !== null && error.status < 500 ? error.status : 502;
    return json<ActionData>({ intent: 'save', result: submission.reply({ formErrors: [message] }) }, { status });
  }
  return redirectWithFlash(context, admin, PAGE_PATH, { tone: 'success', message: SAVED });
}

export default function GbisPage() {
  const { flash, setup, notInUse } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const discovered = actionData?.intent === 'discover' && 'discovery' in actionData ? actionData : null;
  return (
    <AdminPage id="gbis" title={TITLE}>
      <div role="status" className="admin-flash">
        {flash && <p className={flash.tone === 'success' ? 'admin-success' : 'admin-error'}>{flash.message}</p>}
      </div>
      {!setup ? (
        <LoadFailed message={LOAD_FAILED} />
      ) : setup.feed !== 'gbis' ? (
        <p className="notice">{notInUse}</p>
      ) : (
        <>
          <SetupState setup={setup} />
          <section aria-labelledby="gbis-discover-title" className="admin-section">
            <h2 id="gbis-discover-title" className="admin-section__title">
              GBIS에서 찾기
            </h2>
            <Discover setup={setup} />
          </section>
          <section aria-labelledby="gbis-form-title" className="admin-section">
            <h2 id="gbis-form-title" className="admin-section__title">
              설정 값 확인·수정
            </h2>
            <GbisForm
              key={discovered ? 'discovered' : 'current'}
              setup={setup}
              initial={discovered?.discovery.proposal ?? setup.stored?.value ?? setup.effective}
            />
          </section>
        </>
      )}
    </AdminPage>
  );
}

function SetupState({ setup }: { setup: GbisSetup }) {
  const { overrides, callsToday, dailyQuota, stored } = setup;
  const routeOverrides = Object.entries(overrides.routeIds);
  return (
    <section aria-labelledby="gbis-state-title" className="admin-section">
      <h2 id="gbis-state-title" className="admin-section__title">
        현재 상태
      </h2>
      <p className={setup.idsKnown ? 'admin-success' : 'admin-error'}>
        {setup.idsKnown
          ? '버스 정보를 수집하고 있습니다.'
          : '외대사거리 정류소 id가 없어 버스 정보를 수집하지 않고 있습니다. 아래에서 찾아 저장해주세요.'}
      </p>
      <dl className="admin-facts">
        <dt>저장한 설정</dt>
        <dd>{stored ? `${formatKstDateTime(stored.updatedAt)} (${stored.updatedBy})` : '없음 (기본값 사용)'}</dd>
        <dt>환경 변수 우선 적용</dt>
        <dd>
          {overrides.arrivalStationId || routeOverrides.length > 0
            ? [
                overrides.arrivalStationId &&
                  `외대사거리 정류소 ${overrides.arrivalStationId} (GBIS_ARRIVAL_STATION_ID)`,
                ...routeOverrides.map(([routeNo, routeId]) => `${routeNo}번 노선 ${routeId} (GBIS_ROUTE_IDS)`),
              ]
                .filter(Boolean)
                .join(', ') + ': 저장한 값보다 이 값이 우선합니다.'
            : '없음'}
        </dd>
        <dt>오늘 GBIS 호출 (데이터셋마다 하루 {dailyQuota}회)</dt>
        <dd>
          도착 {callsToday.arrivals}, 위치 {callsToday.locations}, 노선 {callsToday.routes}, 정류소{' '}
          {callsToday.stations}
        </dd>
      </dl>
    </section>
  );
}

function Discover({ setup }: { setup: GbisSetup }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'discover';
  const answer = actionData?.intent === 'discover' ? actionData : null;
  return (
    <>
      <p className="field__hint" id="gbis-discover-hint">
        노선 번호와 정류소 이름으로 GBIS를 검색해 id와 시간표를 찾습니다. 오늘 호출 한도에서 노선 조회 최대{' '}
        {ROUTE_NOS.length * 3}회, 정류소 검색 최대 6회를 씁니다. 찾은 값은 저장하기 전에 아래 양식에서 확인할 수
        있습니다.
      </p>
      <Form method="post" action={PAGE_PATH}>
        <input type="hidden" name="intent" value="discover" />
        <button
          type="submit"
          className="button"
          disabled={pending || !setup.keyConfigured}
          aria-describedby="gbis-discover-hint"
        >
          {pending ? 'GBIS에서 찾는 중…' : 'GBIS에서 찾기'}
        </button>
      </Form>
      <div role="alert">{answer && 'refused' in answer && <p className="admin-error">{answer.refused}</p>}</div>
      {answer && 'discovery' in answer && <DiscoveryResult {...answer} />}
    </>
  );
}

function GbisForm({ setup, initial }: { setup: GbisSetup; initial: GbisConfig }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') !== 'discover';
  const [form, fields] = useForm({
    id: 'gbis-setup',
    lastResult: pending || actionData?.intent !== 'save' ? undefined : actionData.result,
    defaultValue: initial,
    constraint: getZodConstraint(GbisFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: GbisFormSchema }),
  });
  const routes = fields.routes.getFieldset();
  const up = fields.upStationIds.getFieldList();
  const down = fields.downStationIds.getFieldList();
  const overridden = (routeNo: string) => setup.overrides.routeIds[routeNo];
  return (
    <Form method="post" action={PAGE_PATH} {...getFormProps(form)} className="form">
      <div role="alert">{form.errors?.[0] && <p className="admin-error">{form.errors[0]}</p>}</div>
      <p className="field__hint">
        비워 둔 칸은 처음부터 정해 둔 값을 씁니다. 값은 경기도 버스정보(GBIS)가 쓰는 숫자 id입니다.
      </p>
      {ROUTE_NOS.map((routeNo) => {
        const route = (routes[routeNo] as FieldMetadata<GbisConfig['routes'][typeof routeNo]>).getFieldset();
        const timetable = route.timetable.getFieldset();
        return (
          <fieldset key={routeNo} className="admin-fieldset">
            <legend>{routeNo}번</legend>
            <Id
              meta={route.routeId}
              label="노선 id"
              hint={
                overridden(routeNo)
                  ? `서버 설정 GBIS_ROUTE_IDS의 ${overridden(routeNo)}가 우선합니다.`
                  : 'GBIS의 routeId'
              }
            />
            <Id
              meta={route.upStaOrder}
              label="외대사거리 상행 정류장 순번"
              hint="모르면 비워 두세요: 양방향 버스가 함께 표시됩니다. (GBIS의 upStaOrder)"
            />
            {DAY_TYPES.map((day) => {
              const t = timetable[day].getFieldset();
              return (
                <fieldset key={day} className="admin-fieldset admin-fieldset--inline">
                  <legend>{DAY_TYPE_NAMES[day]} 종점 출발</legend>
                  <Id meta={t.first} label="첫차 (HH:mm)" />
                  <Id meta={t.last} label="막차 (HH:mm)" />
                  <Id meta={t.minHeadwayMin} label="최소 배차(분)" />
                  <Id meta={t.maxHeadwayMin} label="최대 배차(분)" />
                </fieldset>
              );
            })}
          </fieldset>
        );
      })}
      <fieldset className="admin-fieldset">
        <legend>상행 정류소 (학교 방향)</legend>
        {up.map((meta, i) => (
          <Id
            key={meta.key}
            meta={meta}
            label={`${STOP_NAMES.up[i]} 정류소 id`}
            hint={
              i === 0
                ? setup.overrides.arrivalStationId
                  ? `GBIS_ARRIVAL_STATION_ID의 ${setup.overrides.arrivalStationId}가 우선합니다.`
                  : '도착 정보를 읽는 정류소입니다. 없으면 수집하지 않습니다.'
                : undefined
            }
          />
        ))}
      </fieldset>
      <fieldset className="admin-fieldset">
        <legend>하행 정류소 (학교에서 나가는 방향)</legend>
        {down.map((meta, i) => (
          <Id key={meta.key} meta={meta} label={`${STOP_NAMES.down[i]} 정류소 id`} />
        ))}
      </fieldset>
      <Id
        meta={fields.terminusStationId}
        label="한국외대종점 정류소 id"
        hint="버스가 하행 운행을 시작하는 학교 종점입니다."
      />
      <SubmitButton pending={pending} pendingText="저장하는 중…">
        저장
      </SubmitButton>
    </Form>
  );
}

/** A short text field (ids, numbers, times), labelled, with its hint and error. */
function Id({ meta, label, hint }: { meta: FieldMetadata<unknown>; label: string; hint?: string }) {
  return (
    <TextField
      meta={meta as Parameters<typeof TextField>[0]['meta']}
      label={label}
      hint={hint || undefined}
      optional
      inputProps={{ autoComplete: 'off', spellCheck: false }}
    />
  );
}

/** The setup, or null when the api failed (logged); other errors are thrown. */
async function loadSetup(context: AppLoadContext, actor: string): Promise<GbisSetup | null> {
  try {
    return await getGbisSetup(context, actor);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin/gbis] the setup did not load:', error.message);
    return null;
  }
}

export const meta: MetaFunction = () => [{ title: `${TITLE} | ${SITE_NAME}` }, { name: 'robots', content: 'noindex' }];

export function ErrorBoundary() {
  return <RouteError />;
}
