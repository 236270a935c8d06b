/**
 * /howtouse: the usage guide (docs/product.md §2.8 Usage guide, §1). The spec's five steps, the
 * note that real times vary with traffic and events, and sample bus data (docs/product.md §3.1 Bus arrival:
 * routeNo, time, location) typed by the contract and drawn by the home screen's own ArrivalCards,
 * so the guide shows exactly what the home shows. The refresh interval is the countdown's constant
 * (the reference said 5 seconds while it refreshed every 4). Static: no loader, works without
 * JavaScript, cacheable.
 */
import type { HeadersFunction } from '@remix-run/node';
import { Link, type MetaFunction } from '@remix-run/react';
import type { UpRoute } from '../../contract/bus';
import { STOP_NAMES } from '../../contract/transit';
import { ArrivalCards } from '~/components/arrival-cards';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { REFRESH_INTERVAL_SEC } from '~/utils/countdown';

/** docs/product.md §3.1 Bus arrival as the api sends it: a close bus (red, 곧 도착), a later one, and one without information. */
const SAMPLE_ARRIVALS = [
  { routeNo: '1150', time: 3, location: 2 },
  { routeNo: '1117', time: 12, location: 6 },
  { routeNo: '1303', time: 0, location: 0 },
] satisfies UpRoute[];

const [SAMPLE] = SAMPLE_ARRIVALS;

/** docs/product.md §3's three fields of an arrival, explained with the first sample's values. */
const SAMPLE_FIELDS: { field: keyof typeof SAMPLE; meaning: string; example: string }[] = [
  { field: 'routeNo', meaning: '노선 번호', example: `${SAMPLE.routeNo}번` },
  {
    field: 'time',
    meaning: '외대사거리 도착까지 남은 시간(분). 4분 이하면 빨간색과 ‘곧 도착’으로, 0 이하면 ‘도착 정보 없음’으로 표시',
    example: `${SAMPLE.time}분`,
  },
  { field: 'location', meaning: '외대사거리까지 남은 정류장 수', example: `${SAMPLE.location}정거장 전` },
];

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'public, max-age=300' });

export default function HowToUse() {
  return (
    <div className="page">
      <h1 className="page__title">이용 방법</h1>
      <p className="page__lead">
        {SITE_NAME}는 글로벌캠퍼스를 오가는 광역버스의 실시간 도착 정보와 캠퍼스에서 떠나는 버스의 출발 예상 시간을 한
        화면에 보여줍니다. 하루 약 200명의 학생과 교직원이 통학길에 쓰고 있습니다.
      </p>

      <ol className="guide__steps">
        <li className="guide__step">
          <h2 className="section-title">사이트에 접속하세요</h2>
          <p>
            휴대폰 브라우저로 <Link to="/">홈 화면</Link>을 여세요. 로그인이나 설치 없이 바로 볼 수 있고, 브라우저
            메뉴의 ‘홈 화면에 추가’로 앱처럼 열 수도 있습니다.
          </p>
        </li>
        <li className="guide__step">
          <h2 className="section-title">버스 노선을 확인하세요</h2>
          <p>
            화면 위의 <strong>상행</strong>은 캠퍼스로 들어오는 방향({STOP_NAMES.up.join(' → ')}), <strong>하행</strong>
            은 캠퍼스에서 나가는 방향({STOP_NAMES.down.join(' → ')})입니다. 버스가 어느 구간에 들어오면 그 정류장이 밝게
            표시되고 버스 번호가 함께 나타납니다.
          </p>
        </li>
        <li className="guide__step">
          <h2 className="section-title">실시간 도착 정보를 보세요</h2>
          <p>
            상행 탭의 카드마다 노선 번호, 도착까지 남은 시간, 남은 정류장 수가 나옵니다. 정보는{' '}
            <strong>{REFRESH_INTERVAL_SEC}초</strong>마다 자동으로 새로고침되고, 화면의 카운트다운이 다음 새로고침까지
            남은 시간을 알려줍니다.
          </p>
        </li>
        <li className="guide__step">
          <h2 className="section-title">하행 출발 예상 시간을 확인하세요</h2>
          <p>
            하행 탭에서는 노선마다 어제와 7일 전에 실제로 출발한 시각, 그리고 {SITE_NAME}가 운행 기록과 실시간 위치로
            계산한 예상 출발 시각을 보여줍니다. ‘출발 예상 시간 전체 보기’를 누르면 오늘의 예상 시간을 노선별로 골라 볼
            수 있습니다.
          </p>
        </li>
        <li className="guide__step">
          <h2 className="section-title">궁금한 점은 FAQ와 문의하기로</h2>
          <p>
            자주 묻는 질문은 <Link to="/faq">FAQ</Link>에 모아 두었습니다. 오류 신고나 건의는{' '}
            <Link to="/contact">문의하기</Link>로 보내주세요.
          </p>
        </li>
      </ol>

      <p className="notice-box" role="note">
        실제 도착·출발 시간은 교통 상황이나 행사, 날씨 등에 따라 달라질 수 있습니다. 조금 여유 있게 나와 주세요.
      </p>

      <section aria-labelledby="sample-title">
        <h2 id="sample-title" className="section-title">
          버스 정보 예시
        </h2>
        <p>홈 화면의 상행 카드는 버스마다 아래 세 가지 정보로 만들어집니다.</p>
        <figure className="guide__figure">
          <figcaption className="notice-box__small">예시 화면 (실제 운행 정보가 아닙니다)</figcaption>
          <ArrivalCards routes={SAMPLE_ARRIVALS} />
        </figure>
        <table className="guide__fields">
          <caption className="sr-only">도착 정보의 항목</caption>
          <thead>
            <tr>
              <th scope="col">항목</th>
              <th scope="col">뜻</th>
              <th scope="col">예시</th>
            </tr>
          </thead>
          <tbody>
            {SAMPLE_FIELDS.map(({ field, meaning, example }) => (
              <tr key={field}>
                <th scope="row">
                  <code>{field}</code>
                </th>
                <td>{meaning}</td>
                <td>{example}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: `이용 방법 — ${SITE_NAME}` },
  {
    name: 'description',
    content: `${SITE_NAME} 사용법: 상행 실시간 도착 정보와 하행 출발 예상 시간을 보는 방법, ${REFRESH_INTERVAL_SEC}초마다 새로고침되는 정보 읽는 법.`,
  },
];

export function ErrorBoundary() {
  return <RouteError />;
}
