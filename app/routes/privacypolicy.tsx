/**
 * /privacypolicy: the privacy policy (개인정보 처리방침; docs/product.md §2.9 Privacy policy, §9), in numbered
 * articles: what is collected (analytics data, the inquiry e-mail, the ad applicant's name, phone
 * and e-mail, the client IP for the rate limits and in the admin sign-in log, the username tried at
 * a sign-in in its limits, the one-way code of address and User-Agent that counts an ad once a day,
 * the one-way code of address kept with an uploaded ad image for each address's room, ADR 027),
 * purposes, retention (contract/privacy.ts: ad applications 3 years, or 30 days while unpaid
 * (UNPAID_APPLICATION_DAYS, the upload code as long), inquiries 1 year, the sign-in IP 1 year, all
 * enforced by the api's retention job, api/privacy/retention.ts; the rate-limit IP and username
 * within 2 hours, by rate-limiter-flexible's sweep; the ad count code about 25 hours,
 * DAILY_COUNT_CODE_HOURS), destruction, no third-party sharing, no outsourcing,
 * the person's rights through /contact (a deletion is done with the admin pages' delete), cookies
 * and analytics (what this deployment really uses: the admin cookie, and Google Analytics only when
 * ANALYTICS_ID is set), the privacy officer from env (PRIVACY_OFFICER_*; unset → /contact), the
 * 7-day change notice and the effective date. Static per deployment, so cacheable.
 */
import { json, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData, type MetaFunction } from '@remix-run/react';
import type { ReactNode } from 'react';
import {
  MAIL_RETENTION_DAYS,
  RATE_LIMIT_IP_HOURS,
  RETENTION_YEARS,
  UNPAID_APPLICATION_DAYS,
} from '../../contract/privacy';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { formatKoreanDate } from '../../contract/korean-format';

/** docs/product.md §2, §9: the policy's effective date (KST calendar date). */
const EFFECTIVE_DATE = '2024-06-04';
/** docs/product.md §9: changes are announced this many days before they take effect. */
const CHANGE_NOTICE_DAYS = 7;
/**
 * About how long, in hours, the codes that count something once a day are kept: an ad's view or
 * click (api/ads/counted-once.ts, ADR 018) and the e-mails to one address (api/mail/recipient-limit.ts).
 * Each lives 24 hours and rate-limiter-flexible's sweep deletes it within the hour after.
 */
const DAILY_COUNT_CODE_HOURS = 25;

export async function loader({ context }: LoaderFunctionArgs) {
  const config = context.publicConfig;
  return json({ privacyOfficer: config?.privacyOfficer ?? null, analytics: Boolean(config?.analyticsId) });
}

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'public, max-age=300' });

export default function PrivacyPolicy() {
  const { privacyOfficer, analytics } = useLoaderData<typeof loader>();
  const effectiveDate = formatKoreanDate(EFFECTIVE_DATE);
  return (
    <div className="page">
      <h1 className="page__title">개인정보 처리방침</h1>
      <p className="page__lead">
        {SITE_NAME}(이하 ‘서비스’)는 이용자의 개인정보를 소중히 여기며, 「개인정보 보호법」에 따라 다음과 같이
        개인정보를 처리합니다. 버스 정보를 보는 데에는 회원가입이나 개인정보가 필요하지 않습니다.
      </p>

      <Article number={1} title="처리하는 개인정보 항목">
        <ul className="policy__list">
          <li>
            <strong>광고 신청</strong>: 신청자 이름, 전화번호, 이메일 (필수)
          </li>
          <li>
            <strong>문의하기</strong>: 답변받을 이메일 (선택). 문의 내용에 직접 적은 정보도 함께 보관됩니다.
          </li>
          <li>
            <strong>서비스 이용 중 자동으로 생기는 정보</strong>: 광고 신청, 문의, 관리자 로그인 요청을 보낼 때의 접속
            IP 주소(짧은 시간에 너무 많은 요청이 오는 것을 막는 데 쓰며, 이 용도의 기록은 마지막 요청 뒤{' '}
            {RATE_LIMIT_IP_HOURS}시간 안에 지워집니다)
            {analytics && ', 이용 통계를 위한 분석 정보(방문한 페이지, 기기·브라우저 종류, 대략적인 지역 등)'}
          </li>
          <li>
            <strong>관리자 로그인 기록</strong>: 관리자 페이지에 로그인을 시도한 아이디, 시각, 접속 IP 주소. 관리자
            계정을 보호하기 위해 관리자 활동 기록에 남기며, 접속 IP 주소는 {RETENTION_YEARS.adminSignInIp}년 동안만
            보관합니다. 또한 로그인 시도 횟수를 제한하기 위해 시도한 아이디를 접속 IP 주소와 함께 요청 제한 기록에 두며,
            이 기록은 마지막 시도 뒤 {RATE_LIMIT_IP_HOURS}시간 안에 지워집니다.
          </li>
          <li>
            <strong>광고 노출·클릭 집계</strong>: 같은 광고의 노출과 클릭을 하루에 한 번만 세기 위해, 접속 IP 주소와
            브라우저 정보(User-Agent)를 되돌릴 수 없는 방식으로 변환한 값을 약 {DAILY_COUNT_CODE_HOURS}시간 동안
            보관합니다. 이 값으로는 IP 주소나 브라우저 정보를 알아낼 수 없습니다.
          </li>
          <li>
            <strong>이메일 발송 횟수</strong>: 한 이메일 주소로 하루에 너무 많은 메일이 가지 않도록, 받는 주소를 변환한
            값(주소 자체는 남기지 않습니다)과 보낸 횟수를 약 {DAILY_COUNT_CODE_HOURS}시간 동안 보관합니다.
          </li>
          <li>
            <strong>광고 이미지 업로드</strong>: 한 곳에서 올린 이미지가 저장 공간을 다 차지하지 않도록, 광고 이미지를
            올린 접속 IP 주소를 되돌릴 수 없는 방식으로 변환한 값을 그 이미지와 함께 최대 {UNPAID_APPLICATION_DAYS}일
            동안 보관합니다. 이 값으로는 IP 주소를 알아낼 수 없습니다.
          </li>
        </ul>
        {!analytics && (
          <p>
            현재 서비스는 이용 통계를 위한 분석 도구를 쓰지 않습니다. 분석 도구를 도입하면 제12조에 따라 미리
            알려드립니다.
          </p>
        )}
      </Article>

      <Article number={2} title="개인정보의 처리 목적">
        <ul className="policy__list">
          <li>광고 신청 정보: 신청 확인, 입금 확인, 검토 결과와 게재에 관한 연락</li>
          <li>문의 이메일: 문의·오류 신고·건의에 대한 답변</li>
          <li>접속 IP 주소: 자동 프로그램의 반복 요청과 같은 서비스 남용 방지</li>
          <li>관리자 로그인 기록: 관리자 계정의 무단 사용 방지와 보안 사고 확인</li>
          <li>광고 집계용 변환 값: 같은 사람의 노출·클릭이 여러 번 세어지지 않도록 하는 정확한 광고 집계</li>
          <li>광고 이미지 업로드용 변환 값: 한 곳에서 올린 이미지가 다른 신청자의 저장 공간을 차지하는 것을 방지</li>
          <li>이메일 발송 횟수: 다른 사람의 이메일 주소로 메일을 반복해 보내는 남용 방지</li>
          {analytics && <li>분석 정보: 이용 현황 파악과 서비스 개선</li>}
        </ul>
        <p>정한 목적 밖으로는 쓰지 않으며, 목적이 바뀌면 미리 동의를 받습니다.</p>
      </Article>

      <Article number={3} title="개인정보의 보유 및 이용 기간">
        <ul className="policy__list">
          <li>
            광고 신청 정보: 신청한 날부터 <strong>{RETENTION_YEARS.adApplication}년</strong>. 단, 신청한 날부터{' '}
            <strong>{UNPAID_APPLICATION_DAYS}일</strong> 안에 입금이 확인되지 않아 승인되지 않은 신청은 그때 광고
            이미지와 함께 삭제합니다.
          </li>
          <li>
            문의: 접수한 날부터 <strong>{RETENTION_YEARS.inquiry}년</strong>
          </li>
          <li>
            관리자 로그인 시도의 접속 IP 주소: 시도한 날부터 <strong>{RETENTION_YEARS.adminSignInIp}년</strong>{' '}
            (아이디와 시각은 관리자 활동 기록으로 남습니다)
          </li>
          <li>
            요청 제한에 쓰는 접속 IP 주소: 마지막 요청 뒤 <strong>{RATE_LIMIT_IP_HOURS}시간</strong> 안에 삭제 (관리자
            로그인 시도의 아이디도 같습니다)
          </li>
          <li>
            광고 집계용 변환 값: 만든 뒤 약 <strong>{DAILY_COUNT_CODE_HOURS}시간</strong> 안에 삭제
          </li>
          <li>
            이메일 발송 횟수의 변환 값: 만든 뒤 약 <strong>{DAILY_COUNT_CODE_HOURS}시간</strong> 안에 삭제
          </li>
          <li>
            광고 이미지 업로드용 변환 값: 이미지를 올린 날부터 <strong>{UNPAID_APPLICATION_DAYS}일</strong>
          </li>
          <li>
            서비스가 보낸 이메일(받는 주소와 내용): 보낸 날부터 <strong>{MAIL_RETENTION_DAYS}일</strong> (보내지 못한
            이메일은 다시 보내기를 그만둔 날부터 {MAIL_RETENTION_DAYS}일)
          </li>
        </ul>
        <p>보유 기간이 지난 정보는 서버가 한 시간마다 확인해 자동으로 삭제합니다.</p>
      </Article>

      <Article number={4} title="개인정보의 파기 절차 및 방법">
        <p>
          보유 기간이 끝나거나 처리 목적을 이룬 개인정보는 지체 없이 파기합니다. 전자 파일 형태의 정보는
          데이터베이스에서 복구할 수 없도록 삭제하고, 광고 신청과 함께 받은 광고 이미지는 저장소에서 지웁니다. 단, 게재
          중이거나 게재 예정인 광고에 쓰이는 이미지는 그 광고의 일부로 남고, 관리자가 그 광고를 삭제할 때 함께 지웁니다.
          종이 문서로는 개인정보를 받지 않습니다.
        </p>
      </Article>

      <Article number={5} title="개인정보의 제3자 제공">
        <p>
          서비스는 이용자의 개인정보를 제3자에게 제공하지 않습니다. 다만 법령에 특별한 규정이 있거나 수사기관이 법령에
          정한 절차에 따라 요구하는 경우에는 예외로 합니다.
        </p>
      </Article>

      <Article number={6} title="개인정보 처리의 위탁">
        <p>
          서비스가 이메일(광고 신청 접수와 검토 결과 안내, 문의 답변)을 보낼 때에는 받는 사람의 이메일 주소와 메일
          내용이 이메일 발송 서버를 거쳐 전달됩니다. 그 밖의 개인정보 처리 업무는 다른 곳에 위탁하지 않습니다.
        </p>
      </Article>

      <Article number={7} title="정보주체의 권리와 행사 방법">
        <p>
          이용자는 언제든지 자신의 개인정보를 열람하거나 정정·삭제를 요구할 수 있고, 처리를 멈춰 달라고 요구할 수
          있습니다. <Link to="/contact">문의하기</Link>로 요청해주시면 운영자가 본인임을 확인한 뒤(광고 신청은 신청 때
          적은 이메일이나 전화번호로, 문의는 문의 때 적은 이메일로 확인합니다) 지체 없이 처리하고 결과를 알려드립니다.
          삭제를 요청하시면 운영자가 관리자 도구로 해당 문의나 광고 신청(신청자 정보와 광고 이미지)을 바로 지웁니다.
          게재 중인 광고에 쓰이는 이미지는 그 광고와 함께 남으니, 광고도 내리기를 원하시면 함께 알려주세요.
        </p>
      </Article>

      <Article number={8} title="쿠키와 분석 도구">
        <ul className="policy__list">
          <li>
            일반 이용자에게는 쿠키를 쓰지 않습니다{analytics && '(아래 분석 도구의 쿠키는 예외)'}. 관리자 페이지에
            로그인한 관리자에게만 로그인 상태를 유지하는 세션 쿠키를 쓰며, 이 쿠키는 12시간이 지나거나 로그아웃하면
            사라집니다.
          </li>
          <li>
            광고를 신청한 직후에는 신청 현황 링크를 한 번 보여드리기 위해 그 링크를 담은 쿠키를 최대 10분 동안 둡니다.
            링크를 보여드리면 바로 지웁니다.
          </li>
          <li>
            오늘 이미 본 광고를 다시 세지 않기 위한 광고 번호와, 앱 설치 안내를 닫았는지 여부를 휴대폰의 브라우저
            저장소(localStorage)에 둡니다. 누구인지 알 수 있는 정보는 들어 있지 않으며, 브라우저의 사이트 데이터 삭제로
            지울 수 있습니다.
          </li>
          {analytics ? (
            <li>
              이용 통계를 위해 Google Analytics를 씁니다. Google Analytics는 쿠키로 방문 기록을 모으며, 개인을 직접
              알아볼 수 있는 정보는 보내지 않습니다. 원하지 않으면 브라우저 설정에서 쿠키를 차단하거나 Google 애널리틱스
              차단 부가 기능을 쓰면 됩니다. 쿠키를 막아도 버스 정보는 그대로 볼 수 있습니다.
            </li>
          ) : (
            <li>현재 분석 도구를 쓰지 않으므로 분석용 쿠키도 없습니다.</li>
          )}
        </ul>
      </Article>

      <Article number={9} title="개인정보의 안전성 확보 조치">
        <p>
          개인정보가 담긴 관리자 페이지는 로그인한 관리자만 볼 수 있고, 관리자 비밀번호는 복원할 수 없는 방식으로
          암호화해 저장합니다. 관리자의 처리 기록을 남기며, 정보는 암호화된 연결(HTTPS)로만 주고받습니다.
        </p>
      </Article>

      <Article number={10} title="개인정보 보호책임자">
        {privacyOfficer ? (
          <dl className="policy__officer">
            <div>
              <dt>성명</dt>
              <dd>{privacyOfficer.name}</dd>
            </div>
            <div>
              <dt>이메일</dt>
              <dd>
                <a href={`mailto:${privacyOfficer.email}`}>{privacyOfficer.email}</a>
              </dd>
            </div>
          </dl>
        ) : (
          <p>
            개인정보 보호책임자에게 연락하시려면 <Link to="/contact">문의하기</Link>를 이용해주세요. 운영자가 확인해
            답변드립니다.
          </p>
        )}
        <p>개인정보와 관련한 문의, 불만, 피해 구제 요청은 위 연락처로 보내주시면 지체 없이 답변하고 처리하겠습니다.</p>
      </Article>

      <Article number={11} title="권익침해 구제 방법">
        <p>개인정보 침해에 대한 상담이나 분쟁 해결이 필요하면 아래 기관에 문의할 수 있습니다.</p>
        <ul className="policy__list">
          <li>개인정보분쟁조정위원회: 국번 없이 1833-6972 (www.kopico.go.kr)</li>
          <li>개인정보침해신고센터: 국번 없이 118 (privacy.kisa.or.kr)</li>
          <li>대검찰청: 국번 없이 1301 (www.spo.go.kr)</li>
          <li>경찰청: 국번 없이 182 (ecrm.police.go.kr)</li>
        </ul>
      </Article>

      <Article number={12} title="개인정보 처리방침의 변경">
        <p>
          이 방침을 바꿀 때에는 시행하기 <strong>{CHANGE_NOTICE_DAYS}일 전</strong>부터 이 페이지를 통해 바뀌는 내용과
          시행일을 알려드립니다.
        </p>
      </Article>

      <p className="policy__effective">
        시행일: <time dateTime={EFFECTIVE_DATE}>{effectiveDate}</time>
      </p>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: `개인정보 처리방침 — ${SITE_NAME}` },
  {
    name: 'description',
    content: `${SITE_NAME}가 처리하는 개인정보 항목, 목적, 보유 기간과 파기, 이용자의 권리, 쿠키와 분석 도구, 개인정보 보호책임자.`,
  },
];

export function ErrorBoundary() {
  return <RouteError />;
}

/** One numbered article of the policy (제N조), a section named by its heading. */
function Article({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <section className="policy__article" aria-labelledby={`article-${number}`}>
      <h2 id={`article-${number}`} className="section-title">
        제{number}조 ({title})
      </h2>
      {children}
    </section>
  );
}
