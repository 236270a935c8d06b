import type { AppLoadContext } from '@remix-run/node';
import { RATE_LIMIT_IP_HOURS, RETENTION_YEARS, UNPAID_APPLICATION_DAYS } from '../../contract/privacy';
import PrivacyPolicy, { headers, loader } from '~/routes/privacypolicy';
import type { PublicConfig } from '~/utils/public-config';
import { renderRoute } from '../../tests/setup/render-route';
import { apiContext } from '../../tests/mocks/api';

const unconfigured: PublicConfig = {
  bankAccount: null,
  adSlots: { adfitUnit: null, adsense: null },
  privacyOfficer: null,
  analyticsId: null,
};

/** The loader's answer with `config`, then the page rendered with it. */
async function page(config: Partial<PublicConfig> = {}) {
  const context: AppLoadContext = {
    ...apiContext(),
    api: { baseUrl: 'http://api.test', fetch: () => Promise.reject(new Error('no api call expected')) },
    publicConfig: { ...unconfigured, ...config },
  };
  const response = await loader({ request: new Request('http://web.test/privacypolicy'), context, params: {} });
  const loaderData = await response.json();
  const document = await renderRoute(PrivacyPolicy, { path: '/privacypolicy', url: '/privacypolicy', loaderData });
  /** The article (section) headed `heading`. */
  const section = (heading: string) =>
    [...document.querySelectorAll('section')].find((s) => s.querySelector('h2')?.textContent === heading);
  const article = (heading: string) => section(heading)?.textContent ?? '';
  return { loaderData, document, section, article, text: document.body.textContent ?? '' };
}

describe('/privacypolicy', () => {
  it('covers every item of docs/product.md §2 in numbered articles, under one h1', async () => {
    const { document } = await page();
    expect(document.querySelector('h1')?.textContent).toBe('개인정보 처리방침');
    expect([...document.querySelectorAll('h2')].map((h) => h.textContent)).toEqual([
      '제1조 (처리하는 개인정보 항목)',
      '제2조 (개인정보의 처리 목적)',
      '제3조 (개인정보의 보유 및 이용 기간)',
      '제4조 (개인정보의 파기 절차 및 방법)',
      '제5조 (개인정보의 제3자 제공)',
      '제6조 (개인정보 처리의 위탁)',
      '제7조 (정보주체의 권리와 행사 방법)',
      '제8조 (쿠키와 분석 도구)',
      '제9조 (개인정보의 안전성 확보 조치)',
      '제10조 (개인정보 보호책임자)',
      '제11조 (권익침해 구제 방법)',
      '제12조 (개인정보 처리방침의 변경)',
    ]);
  });

  it('states the collected data, retention (3 years, 1 year), destruction, no sharing, what e-mail passes through, rights via /contact', async () => {
    const { article } = await page();
    expect(article('제1조 (처리하는 개인정보 항목)')).toContain('광고 신청: 신청자 이름, 전화번호, 이메일 (필수)');
    expect(article('제1조 (처리하는 개인정보 항목)')).toContain('문의하기: 답변받을 이메일 (선택)');
    expect(article('제3조 (개인정보의 보유 및 이용 기간)')).toContain('광고 신청 정보: 신청한 날부터 3년');
    expect(article('제3조 (개인정보의 보유 및 이용 기간)')).toContain('문의: 접수한 날부터 1년');
    expect(article('제4조 (개인정보의 파기 절차 및 방법)')).toContain('데이터베이스에서 복구할 수 없도록 삭제');
    expect(article('제4조 (개인정보의 파기 절차 및 방법)')).toContain('광고 이미지는 저장소에서 지웁니다');
    expect(article('제4조 (개인정보의 파기 절차 및 방법)')).toContain(
      '게재 중이거나 게재 예정인 광고에 쓰이는 이미지는 그 광고의 일부로 남고, 관리자가 그 광고를 삭제할 때 함께 지웁니다.',
    );
    expect(article('제5조 (개인정보의 제3자 제공)')).toContain('제3자에게 제공하지 않습니다');
    expect(article('제6조 (개인정보 처리의 위탁)')).toBe(
      '제6조 (개인정보 처리의 위탁)버스 알림은 이용자의 브라우저가 쓰는 푸시 서비스(Google, Mozilla, Apple, Microsoft 중 ' +
        '하나)를 거쳐 전달됩니다. 알림 내용은 이용자의 브라우저만 풀 수 있도록 암호화해 보내므로 푸시 서비스는 내용을 ' +
        '읽을 수 없습니다.서비스가 이메일(광고 신청 접수와 검토 결과 안내, 문의 답변)을 보낼 때에는 받는 ' +
        '사람의 이메일 주소와 메일 내용이 이메일 발송 서버를 거쳐 전달됩니다. 그 밖의 개인정보 처리 업무는 다른 곳에 ' +
        '위탁하지 않습니다.',
    );
    // The outbox's retention, as the retention job enforces it (contract/privacy.ts MAIL_RETENTION_DAYS).
    expect(article('제3조 (개인정보의 보유 및 이용 기간)')).toContain(
      '서비스가 보낸 이메일(받는 주소와 내용): 보낸 날부터 30일',
    );
    // A push subscription (docs/decisions/033-web-push-reminders.md), as the retention job and the scheduler enforce it.
    expect(article('제1조 (처리하는 개인정보 항목)')).toContain(
      '버스 알림: 알림을 설정할 때 브라우저가 만든 푸시 구독 정보',
    );
    expect(article('제3조 (개인정보의 보유 및 이용 기간)')).toContain(
      '알림을 취소하면 바로 삭제하며, 어떤 경우에도 받은 때부터 24시간 안에 삭제',
    );
  });

  it('states the periods the api enforces (contract/privacy.ts), the IP addresses included', async () => {
    expect(RETENTION_YEARS).toEqual({ adApplication: 3, inquiry: 1, adminSignInIp: 1 });
    expect(RATE_LIMIT_IP_HOURS).toBe(2);
    const { article } = await page();
    const collected = article('제1조 (처리하는 개인정보 항목)');
    expect(collected).toContain(
      '광고 신청, 문의, 관리자 로그인 요청을 보낼 때의 접속 IP 주소(짧은 시간에 너무 많은 요청이 오는 것을 막는 데 쓰며, ' +
        '이 용도의 기록은 마지막 요청 뒤 2시간 안에 지워집니다)',
    );
    expect(collected).toContain(
      '관리자 로그인 기록: 관리자 페이지에 로그인을 시도한 아이디, 시각, 접속 IP 주소. 관리자 계정을 보호하기 위해 ' +
        '관리자 활동 기록에 남기며, 접속 IP 주소는 1년 동안만 보관합니다.',
    );
    expect(collected).not.toContain('데에만');
    expect(article('제2조 (개인정보의 처리 목적)')).toContain(
      '관리자 로그인 기록: 관리자 계정의 무단 사용 방지와 보안 사고 확인',
    );
    const retention = article('제3조 (개인정보의 보유 및 이용 기간)');
    expect(retention).toContain(
      '관리자 로그인 시도의 접속 IP 주소: 시도한 날부터 1년 (아이디와 시각은 관리자 활동 기록으로 남습니다)',
    );
    expect(retention).toContain('요청 제한에 쓰는 접속 IP 주소: 마지막 요청 뒤 2시간 안에 삭제');
  });

  it('states that an application still unpaid after 30 days is deleted with its image, and the upload code kept as long', async () => {
    expect(UNPAID_APPLICATION_DAYS).toBe(30);
    const { article } = await page();
    expect(article('제3조 (개인정보의 보유 및 이용 기간)')).toContain(
      '광고 신청 정보: 신청한 날부터 3년. 단, 신청한 날부터 30일 안에 입금이 확인되지 않아 승인되지 않은 신청은 ' +
        '그때 광고 이미지와 함께 삭제합니다.',
    );
    expect(article('제1조 (처리하는 개인정보 항목)')).toContain(
      '광고 이미지 업로드: 한 곳에서 올린 이미지가 저장 공간을 다 차지하지 않도록, 광고 이미지를 올린 접속 IP 주소를 ' +
        '되돌릴 수 없는 방식으로 변환한 값을 그 이미지와 함께 최대 30일 동안 보관합니다. 이 값으로는 IP 주소를 알아낼 수 ' +
        '없습니다.',
    );
    expect(article('제2조 (개인정보의 처리 목적)')).toContain('광고 이미지 업로드용 변환 값:');
    expect(article('제3조 (개인정보의 보유 및 이용 기간)')).toContain(
      '광고 이미지 업로드용 변환 값: 이미지를 올린 날부터 30일',
    );
  });

  it('states that a sign-in keeps the username tried with the address in its limits, for at most 2 hours', async () => {
    const { article } = await page();
    expect(article('제1조 (처리하는 개인정보 항목)')).toContain(
      '또한 로그인 시도 횟수를 제한하기 위해 시도한 아이디를 접속 IP 주소와 함께 요청 제한 기록에 두며, ' +
        '이 기록은 마지막 시도 뒤 2시간 안에 지워집니다.',
    );
    expect(article('제3조 (개인정보의 보유 및 이용 기간)')).toContain(
      '요청 제한에 쓰는 접속 IP 주소: 마지막 요청 뒤 2시간 안에 삭제 (관리자 로그인 시도의 아이디도 같습니다)',
    );
  });

  it('states the one-way code of address and browser that counts an ad once a day, kept about 25 hours', async () => {
    const { article } = await page();
    expect(article('제1조 (처리하는 개인정보 항목)')).toContain(
      '광고 노출·클릭 집계: 같은 광고의 노출과 클릭을 하루에 한 번만 세기 위해, 접속 IP 주소와 브라우저 정보' +
        '(User-Agent)를 되돌릴 수 없는 방식으로 변환한 값을 약 25시간 동안 보관합니다. ' +
        '이 값으로는 IP 주소나 브라우저 정보를 알아낼 수 없습니다.',
    );
    expect(article('제2조 (개인정보의 처리 목적)')).toContain(
      '광고 집계용 변환 값: 같은 사람의 노출·클릭이 여러 번 세어지지 않도록 하는 정확한 광고 집계',
    );
    expect(article('제3조 (개인정보의 보유 및 이용 기간)')).toContain(
      '광고 집계용 변환 값: 만든 뒤 약 25시간 안에 삭제',
    );
  });

  it('links the rights and the officer to /contact when no officer is configured', async () => {
    const { section, article } = await page();
    const rights = article('제7조 (정보주체의 권리와 행사 방법)');
    expect(rights).toContain(
      '문의하기로 요청해주시면 운영자가 본인임을 확인한 뒤(광고 신청은 신청 때 적은 이메일이나 전화번호로, ' +
        '문의는 문의 때 적은 이메일로 확인합니다)',
    );
    expect(rights).toContain(
      '삭제를 요청하시면 운영자가 관리자 도구로 해당 문의나 광고 신청(신청자 정보와 광고 이미지)을 바로 지웁니다.',
    );
    expect(section('제7조 (정보주체의 권리와 행사 방법)')?.querySelector('a')?.getAttribute('href')).toBe('/contact');
    expect(article('제10조 (개인정보 보호책임자)')).toContain(
      '개인정보 보호책임자에게 연락하시려면 문의하기를 이용해주세요.',
    );
    expect(section('제10조 (개인정보 보호책임자)')?.querySelector('a')?.getAttribute('href')).toBe('/contact');
  });

  it('names the configured privacy officer with a mail link', async () => {
    const privacyOfficer = { name: '김외대', email: 'privacy@campus-bus.example' };
    const { loaderData, document, article } = await page({ privacyOfficer });
    expect(loaderData).toEqual({ privacyOfficer, analytics: false });
    expect(article('제10조 (개인정보 보호책임자)')).toContain('성명김외대');
    const mail = document.querySelector('a[href^="mailto:"]');
    expect(mail?.getAttribute('href')).toBe('mailto:privacy@campus-bus.example');
    expect(mail?.textContent).toBe('privacy@campus-bus.example');
  });

  it('tells the truth about cookies and analytics: none for visitors unless ANALYTICS_ID is set', async () => {
    const without = await page();
    expect(without.article('제8조 (쿠키와 분석 도구)')).toContain('일반 이용자에게는 쿠키를 쓰지 않습니다.');
    // The one exception the application form makes (app/utils/status-link.server.ts: 10 minutes, read once).
    expect(without.article('제8조 (쿠키와 분석 도구)')).toContain(
      '광고를 신청한 직후에는 신청 현황 링크를 한 번 보여드리기 위해 그 링크를 담은 쿠키를 최대 10분 동안 둡니다.',
    );
    expect(without.article('제8조 (쿠키와 분석 도구)')).toContain('관리자에게만 로그인 상태를 유지하는 세션 쿠키');
    // And the language switch's (app/i18n/locale.server.ts languageCookie: a year, the language only).
    expect(without.article('제8조 (쿠키와 분석 도구)')).toContain(
      '고른 언어를 기억하는 쿠키(lang)를 1년 동안 둡니다. 언어 말고는 아무것도 담지 않으며',
    );
    expect(without.article('제8조 (쿠키와 분석 도구)')).toContain(
      '현재 분석 도구를 쓰지 않으므로 분석용 쿠키도 없습니다.',
    );
    expect(without.text).not.toContain('Google Analytics');

    const withAnalytics = await page({ analyticsId: 'G-ABC123XYZ9' });
    expect(withAnalytics.loaderData).toEqual({ privacyOfficer: null, analytics: true });
    expect(withAnalytics.article('제1조 (처리하는 개인정보 항목)')).toContain('이용 통계를 위한 분석 정보');
    expect(withAnalytics.article('제8조 (쿠키와 분석 도구)')).toContain('이용 통계를 위해 Google Analytics를 씁니다.');
    expect(withAnalytics.text).not.toContain('G-ABC123XYZ9');
  });

  it('announces changes 7 days ahead and takes effect on 4 June 2024', async () => {
    const { document, article } = await page();
    expect(article('제12조 (개인정보 처리방침의 변경)')).toContain('시행하기 7일 전부터');
    const effective = document.querySelector('time');
    expect(effective?.getAttribute('datetime')).toBe('2024-06-04');
    expect(effective?.parentElement?.textContent).toBe('시행일: 2024년 6월 4일');
  });

  it('is cacheable', () => {
    const empty = new Headers();
    const sent = headers({ loaderHeaders: empty, parentHeaders: empty, actionHeaders: empty, errorHeaders: undefined });
    expect(new Headers(sent).get('Cache-Control')).toBe('public, max-age=300');
  });
});
