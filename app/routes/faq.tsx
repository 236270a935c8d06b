/**
 * /faq: six questions and answers about this product and an inquiry box (docs/product.md §2.6 FAQ). Native details/summary, so every item opens and closes without JavaScript, by keyboard
 * too. The predictions' answer carries the accuracy of the last 14 service days from the api
 * (GET /api/bus/accuracy, its daily backtest), led by the down tab's sentence; when that
 * call fails the figure is left out (logged), and when the api has no figure yet the answer says so.
 */
import { json, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData, useLocation, type MetaFunction } from '@remix-run/react';
import { useEffect } from 'react';
import { AD_PAYMENT, accountSentence } from '../../contract/ad-payment';
import { AD_DURATIONS, AD_MONTH_DAYS } from '../../contract/ads';
import { PREDICTION_ACCURACY_DAYS, type PredictionAccuracy } from '../../contract/bus';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { getPredictionAccuracy } from '~/models/bus.server';
import { REFRESH_INTERVAL_SEC } from '~/utils/countdown';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { formatWon, priceWon } from '../../contract/prices';
import { accuracySentence } from '~/utils/prediction-accuracy';
import { useT } from '~/i18n/i18n';
import common from '~/i18n/compiled/ko/common.js';
import { formatKoreanMonthDay } from '../../contract/korean-format';
import { consoleFor } from '../../lib/observability/request-tag';

/**
 * `accuracy` is null when the api could not give it (the figure is then left out); its figures are
 * null when the api has no history yet. `bankAccount` (AD_BANK_*) is the account the ad answer
 * gives, null until one is configured (the answer then says the reviewer e-mails it). The page is public and cacheable, except when the figure
 * failed or is not computed yet: that page is not kept, so the next visitor gets the figure.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const accuracy = await getPredictionAccuracy(context).catch((error: unknown) => {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[faq] prediction accuracy unavailable:', error.message);
    return null;
  });
  const cacheControl = accuracy?.computedAt ? 'public, max-age=300' : 'no-store';
  const bankAccount = context.publicConfig?.bankAccount ?? null;
  return json({ accuracy, bankAccount }, { headers: { 'Cache-Control': cacheControl } });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function Faq() {
  const { accuracy, bankAccount } = useLoaderData<typeof loader>();
  const { hash } = useLocation();
  // A link to something inside an answer (the down tab's /faq#accuracy) opens its item. The browser
  // does so itself on a document load; a client-side navigation needs this.
  useEffect(() => {
    const target = hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    const item = target?.closest('details');
    if (!target || !item) return;
    item.open = true;
    target.scrollIntoView({ block: 'start' });
  }, [hash]);
  return (
    <div className="page">
      <h1 className="page__title">자주 묻는 질문</h1>
      <p className="page__lead">질문을 누르면 답이 펼쳐집니다.</p>

      <div className="faq__list">
        <details className="faq__item">
          <summary className="faq__question">버스 정보는 어디에서 가져오나요?</summary>
          <div className="faq__answer">
            <p>
              경기도 버스정보시스템(GBIS)이 공공데이터포털을 통해 제공하는 실시간 버스 도착·위치 정보를 씁니다. 서버가
              정보를 한 번 받아 와 모든 이용자에게 똑같이 나눠 주기 때문에, 이용자가 많아져도 공공데이터를 더 자주
              부르지 않습니다.
            </p>
            <p>
              공공데이터 이용 키 없이 설치한 시연·개발용 서버에서는 시뮬레이터가 만든 가상의 운행 정보를 보여주며, 이때
              홈 화면에 ‘데모 데이터’라고 표시됩니다.
            </p>
          </div>
        </details>

        <details className="faq__item">
          <summary className="faq__question">정보는 얼마나 자주 새로고침되나요?</summary>
          <div className="faq__answer">
            <p>
              홈 화면은 <strong>{REFRESH_INTERVAL_SEC}초</strong>마다 최신 정보를 다시 받아옵니다. 화면의 카운트다운이
              0이 되면 새로고침됩니다.
            </p>
            <p>
              다만 버스정보시스템에서 정보를 받아 오는 간격은 하루 이용 한도에 맞춰 수십 초에서 몇 분 사이로 조절됩니다.
              버스가 가까이 올 때는 더 자주, 오는 버스가 없을 때는 드물게 받습니다. 그래서 몇 번 새로고침하는 동안 같은
              정보가 보일 수 있고, 남은 시간은 마지막으로 받은 정보에서 흐른 시간만큼 줄여 보여줍니다.
            </p>
          </div>
        </details>

        <details className="faq__item">
          <summary className="faq__question">하행 출발 예상 시간은 어떻게 계산하나요? 얼마나 정확한가요?</summary>
          <div className="faq__answer">
            <p>하행 탭은 캠퍼스에서 떠나는 버스마다 세 가지 시간을 보여줍니다.</p>
            <ul className="faq__bullets">
              <li>
                <strong>어제</strong>: 어제 실제로 출발한 시각
              </li>
              <li>
                <strong>7일 전</strong>: 일주일 전 같은 요일에 실제로 출발한 시각
              </li>
              <li>
                <strong>예상</strong>: 최근 몇 주 동안 같은 종류의 날(평일, 토요일, 일요일·공휴일)의 운행 기록에서 배운
                실제 출발 시간표로 계산한 시각. 최근 날일수록 더 무겁게 반영해 시간표가 바뀌어도 며칠 안에 따라가고, 한
                번 빠지거나 더 생긴 운행이 뒤의 시각을 밀지 않습니다. 매주 같은 요일에 되풀이되는 지연도 반영합니다.
              </li>
            </ul>
            <p>
              캠퍼스로 들어오는 버스가 외대사거리를 지나면 바로 고칩니다. 같은 시간대에 그만큼 이르거나 늦게 지나간
              버스들이 지난 몇 주 동안 실제로 언제 떠났는지를 보고 셈합니다. 임시공휴일처럼 오늘 버스가 달력과 다른 날의
              시간표로 다니면, 오늘의 출발 기록을 보고 그 시간표로 바꿔 계산합니다. 운행 기록이 모자라면 시간표를
              씁니다.
            </p>
            <p>예상 시각 아래의 ‘실시간 반영’, ‘운행 기록 기준’, ‘시간표 기준’이 그 시각의 근거입니다.</p>
            <p id="range">
              예상 시각 뒤 괄호 안의 시간은 출발 범위입니다. ‘22:41 (22:40~22:44)’는 예상 출발이 22시 41분이고, 비슷한
              날 10번 중 8번쯤은 22시 40분에서 22시 44분 사이에 떠난다는 뜻입니다. 곧 떠날 버스의 예상 시각은 일부러
              조금 이르게 잡습니다. 조금 늦게 오는 버스는 기다리면 타지만, 일찍 떠난 버스는 놓치기 때문입니다. 범위가
              2분 이하로 좁거나 시간표로 계산한 시각은 시각만 보여줍니다.
            </p>
            {accuracy && <AccuracyFigure accuracy={accuracy} />}
          </div>
        </details>

        <details className="faq__item">
          <summary className="faq__question">광고는 어떻게 신청하나요?</summary>
          <div className="faq__answer">
            <p>
              <Link to="/ads/apply">광고 신청</Link> 페이지에서 홈 화면 배너에 실리는 웹 배너 광고나 카카오톡 챗봇에
              실리는 챗봇 광고를 신청할 수 있습니다. 광고비는 한 달({AD_MONTH_DAYS}일)에{' '}
              <strong>{formatWon(priceWon(1))}</strong>이며, 기간은 {AD_DURATIONS.join('·')}개월 중에서 고를 수
              있습니다.
            </p>
            <p>
              {AD_PAYMENT.payAfterApplying} {AD_PAYMENT.approvalAfterDeposit} {accountSentence(bankAccount)}{' '}
              {AD_PAYMENT.unpaidDeadline}
            </p>
            <p>
              신청을 마치면 신청 현황 링크를 드립니다. 검토 결과와 게재 기간, 게재가 시작된 뒤의 노출·클릭 수를 그
              링크에서 볼 수 있으니 저장해두세요. 사이트가 이메일 알림을 보내고 있다면 같은 링크가 입력하신 이메일로도
              갑니다.
            </p>
          </div>
        </details>

        <details className="faq__item">
          <summary className="faq__question">오류를 발견했거나 건의하고 싶은 게 있어요.</summary>
          <div className="faq__answer">
            <p>
              <Link to="/contact">문의하기</Link>에서 문의, 오류 신고, 건의를 모두 받습니다. 답변을 받고 싶다면 이메일
              주소를 함께 남겨주세요. 이메일은 선택입니다.
            </p>
          </div>
        </details>

        <details className="faq__item">
          <summary className="faq__question">제 개인정보는 어떻게 처리되나요?</summary>
          <div className="faq__answer">
            <p>
              버스 정보를 보는 데는 로그인도 개인정보도 필요 없습니다. 광고를 신청할 때 이름·전화번호·이메일을, 문의할
              때 원하시면 이메일을 받으며, 정해진 보유 기간이 지나면 자동으로 삭제됩니다.
            </p>
            <p>
              자세한 내용은 <Link to="/privacypolicy">개인정보 처리방침</Link>에서 확인할 수 있습니다.
            </p>
          </div>
        </details>
      </div>

      <section className="notice-box faq__inquiry" aria-labelledby="inquiry-title">
        <h2 id="inquiry-title" className="section-title">
          찾는 답이 없나요?
        </h2>
        <p>문의, 오류 신고, 건의 무엇이든 보내주세요.</p>
        <Link to="/contact" className="button">
          문의하기
        </Link>
      </section>
    </div>
  );
}

/** The last 14 days' backtest: the estimate against the day-before baseline, and what "accurate" means. */
function AccuracyFigure({ accuracy }: { accuracy: PredictionAccuracy }) {
  const { window, estimate, dayBefore, tolerances, source } = accuracy;
  const t = useT(common);
  const sentence = accuracySentence(accuracy, (params) => t('accuracy.sentence', params));
  if (!window.firstDate || !window.lastDate || estimate.etaScore === null || !sentence) {
    return (
      <p className="faq__accuracy" id="accuracy">
        정확도 수치는 아직 없습니다. 운행 기록이 쌓이면 최근 {PREDICTION_ACCURACY_DAYS}일 기준으로 하루에 한 번 계산해
        여기에 보여드리겠습니다.
      </p>
    );
  }
  const period = `${formatKoreanMonthDay(window.firstDate)}부터 ${formatKoreanMonthDay(window.lastDate)}까지`;
  const estimateError =
    estimate.maeSec === null ? '' : ` 실제 출발과의 차이는 평균 ${formatDuration(estimate.maeSec)}였습니다.`;
  const baseline =
    dayBefore.etaScore === null
      ? ''
      : ` 같은 기간 ‘어제’ 시간을 그대로 썼다면 정확도는 ${Math.round(dayBefore.etaScore)}%` +
        (dayBefore.maeSec === null ? '였습니다.' : `, 평균 차이는 ${formatDuration(dayBefore.maeSec)}였습니다.`);
  const [first, last] = [tolerances[0], tolerances.at(-1)];
  return (
    <div className="faq__accuracy" id="accuracy">
      <p>
        <strong>{sentence}</strong>
      </p>
      <p>
        {period} {window.days}일 동안의 실제 출발 기록으로 되짚어 보니, ‘예상’ 시간의 정확도는{' '}
        <strong>{Math.round(estimate.etaScore)}%</strong>였습니다.
        {estimateError}
        {baseline}
      </p>
      {first && last && (
        <p className="notice-box__small">
          ‘정확’은 출발 {last.toSec / 60}분 전부터 직전까지 다음 버스 시간을 확인했을 때, 실제 출발이 확인한 시점에 따라
          정한 범위 안에 든 경우입니다. 출발 {first.toSec / 60}분 전 이내라면 예상보다 {formatDuration(first.earlySec)}{' '}
          이르거나 {formatDuration(first.lateSec)} 늦은 범위까지, {last.fromSec / 60}~{last.toSec / 60}분 전이라면{' '}
          {formatDuration(last.earlySec)} 이르거나 {formatDuration(last.lateSec)} 늦은 범위까지 인정합니다. 비율은 확인
          시점 구간(
          {tolerances.map(({ fromSec, toSec }) => `${fromSec / 60}~${toSec / 60}분 전`).join(', ')})마다 낸 정확도의
          평균입니다.
          {source === 'demo' && ' 이 수치는 시뮬레이터가 만든 가상의 운행 기록으로 계산한 것입니다.'}
        </p>
      )}
    </div>
  );
}

/** Whole seconds as Korean copy: 104 → "1분 44초", 45 → "45초", 120 → "2분". */
function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return `${rest}초`;
  return rest === 0 ? `${minutes}분` : `${minutes}분 ${rest}초`;
}

export const meta: MetaFunction = () => [
  { title: `자주 묻는 질문 — ${SITE_NAME}` },
  {
    name: 'description',
    content: `${SITE_NAME}의 버스 정보 출처, 새로고침 간격, 출발 예상 시간의 계산과 정확도, 광고, 문의, 개인정보 처리에 대한 답.`,
  },
];

export function ErrorBoundary() {
  return <RouteError />;
}
