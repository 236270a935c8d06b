/**
 * The admin feed page's restart of a route's learning (docs/predictions.md §Following a changed
 * timetable): a route and the first service date of its new timetable, checked by conform with the
 * contract's schema in the browser and again by the page's action; without JavaScript too. Each
 * change the predictions follow can be confirmed with a button that sends its route and date.
 */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form, useNavigation } from '@remix-run/react';
import { TimetableRestartSchema, type AdminFeedStatus } from '../../../contract/admin-feed';
import { ROUTE_NOS } from '../../../contract/transit';
import { RadioGroup, SubmitButton, TextField } from '~/components/forms';

/** The page this form posts to. */
export const TIMETABLE_RESTART_PATH = '/admin-only/feed';
const FORM_ID = 'timetable-restart';

/** The last answer of the page's action (a refusal), and the detected changes to confirm. */
export function TimetableRestartForm({
  lastResult,
  changes,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  changes: AdminFeedStatus['timetableChanges'];
}) {
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formAction === TIMETABLE_RESTART_PATH;
  const [form, fields] = useForm({
    id: FORM_ID,
    lastResult: pending ? undefined : lastResult,
    constraint: getZodConstraint(TimetableRestartSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TimetableRestartSchema }),
  });
  const formError = form.errors?.[0];
  return (
    <>
      <p className="field__hint">
        노선의 시간표가 바뀐 날을 정하면, 그 노선의 예측은 그날부터의 출발 기록으로만 다시 배웁니다. 감지된 변경은 위
        목록에 있고, 아래 버튼으로 그대로 확정할 수 있습니다.
      </p>
      {changes.map((change) => (
        <Form method="post" action={TIMETABLE_RESTART_PATH} key={change.routeNo} className="admin-form__actions">
          <input type="hidden" name="routeNo" value={change.routeNo} />
          <input type="hidden" name="since" value={change.since} />
          <button type="submit" className="button button--small" disabled={pending}>
            {change.routeNo}번 {change.since}부터 다시 배우기
          </button>
        </Form>
      ))}
      <div role="alert">{formError && <p className="admin-error">{formError}</p>}</div>
      <Form method="post" action={TIMETABLE_RESTART_PATH} {...getFormProps(form)} className="form">
        <RadioGroup
          meta={fields.routeNo}
          legend="노선"
          options={ROUTE_NOS.map((routeNo) => ({ value: routeNo, label: `${routeNo}번` }))}
        />
        <TextField meta={fields.since} label="새 시간표의 첫날" inputProps={{ type: 'date' }} />
        <div className="admin-form__actions">
          <SubmitButton pending={pending} pendingText="저장하는 중…">
            이날부터 다시 배우기
          </SubmitButton>
        </div>
      </Form>
    </>
  );
}
