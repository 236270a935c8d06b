import { renderLetter, type LetterSettings } from './messages';

const BASE_URL = 'https://bus.example.kr';
const BANK = { bank: '농협', number: '351-1234-5678-90', holder: '캠퍼스버스' };
const application = { id: 7, type: 'web', title: '캠퍼스 카페', duration: 2 } as const;
const settings = (bankAccount: LetterSettings['bankAccount']): LetterSettings => ({ baseUrl: BASE_URL, bankAccount });

describe('the applicant’s letters tell the payment as the pages do (contract/ad-payment.ts)', () => {
  const receipt = (bankAccount: LetterSettings['bankAccount']) =>
    renderLetter(
      { kind: 'application-received', application, applicantName: '홍길동', statusToken: 'tok' },
      settings(bankAccount),
    ).text;

  it('the receipt asks to pay the amount after applying, and says the deposit is checked before approval', () => {
    expect(receipt(BANK)).toBe(
      [
        '홍길동님, 광고 신청을 받았습니다.',
        '아래 금액을 계좌 이체로 입금해주세요. 입금을 확인하면 광고를 승인하고, 승인한 날부터 게재 기간이 시작됩니다. ' +
          '입금자명은 신청자 이름과 같게 해주세요. 신청한 날부터 30일 안에 입금이 확인되지 않은 신청은 이미지와 함께 삭제됩니다.',
        '검토 결과와 진행 상황은 아래 링크에서 언제든 확인할 수 있습니다.',
        [
          '광고 유형: 웹 배너 광고',
          '제목: 캠퍼스 카페',
          '기간: 2개월',
          '금액: 26,000원 × 2개월 = 52,000원',
          '입금 계좌: 농협 351-1234-5678-90 (예금주 캠퍼스버스)',
        ].join('\n'),
        `신청 현황 보기: ${BASE_URL}/ads/status/tok`,
        '이 링크는 신청하신 분만 보도록 만든 비공개 링크입니다. 다른 사람과 공유하지 마세요.',
        '— 외대 버스\n',
      ].join('\n\n'),
    );
  });

  it('without a configured account, the receipt says the reviewer writes to this address, as the form promised', () => {
    expect(receipt(null)).toContain('입금 계좌: 담당자가 이 이메일 주소로 따로 알려드립니다.');
  });

  it('the approval says the deposit was found', () => {
    const { text } = renderLetter(
      {
        kind: 'approved',
        application,
        startsAt: new Date('2026-11-23T10:00:00+09:00'),
        endsAt: new Date('2027-01-22T10:00:00+09:00'),
        statusToken: 'tok',
      },
      settings(BANK),
    );
    expect(text.split('\n\n').slice(0, 2)).toEqual([
      '입금을 확인해 신청하신 광고를 승인했습니다. 아래 게재 기간 동안 광고가 실립니다.',
      '광고 유형: 웹 배너 광고\n제목: 캠퍼스 카페\n게재 기간: 2026년 11월 23일 ~ 2027년 1월 22일',
    ]);
  });
});

describe('the letters of an application or an inquiry sent from an English page are in English (docs/product.md §1 Languages)', () => {
  const render = (letter: Parameters<typeof renderLetter>[0]) => renderLetter(letter, settings(BANK));

  it('the receipt: subject, payment, facts with "KRW × months" amounts, status link, signature, <html lang="en">', () => {
    const receipt = render({
      kind: 'application-received',
      application,
      applicantName: 'Jane Doe',
      statusToken: 'tok',
      locale: 'en',
    });
    expect(receipt.subject).toBe('[HUFS Bus] We received your ad application (application no. 7)');
    expect(receipt.text).toBe(
      [
        'Jane Doe, we received your ad application.',
        'Please pay the amount below by bank transfer. We approve the ad once we find your deposit, and its period ' +
          "starts on the day of approval. Please send the transfer under the applicant's name. An application whose " +
          'deposit is not found within 30 days of applying is deleted with its image.',
        'You can follow the review and its result at the link below at any time.',
        [
          'Ad type: Web banner ad',
          'Title: 캠퍼스 카페',
          'Duration: 2 months',
          'Amount: 26,000 KRW × 2 months = 52,000 KRW',
          'Bank account: 농협 351-1234-5678-90 (account holder: 캠퍼스버스)',
        ].join('\n'),
        `See your application: ${BASE_URL}/ads/status/tok`,
        'This link is private: only you, the applicant, are meant to see it. Please do not share it.',
        '— HUFS Bus\n',
      ].join('\n\n'),
    );
    expect(receipt.html).toContain('<html lang="en">');
    const oneMonth = renderLetter(
      {
        kind: 'application-received',
        application: { ...application, duration: 1 },
        applicantName: 'Jane Doe',
        statusToken: 'tok',
        locale: 'en',
      },
      settings(null),
    );
    expect(oneMonth.text).toContain(
      'Amount: 26,000 KRW × 1 month = 26,000 KRW\nBank account: The reviewer will send it to this e-mail address.',
    );
  });

  it('the approval gives the period in English dates; the rejection its reason or that none was given', () => {
    const approval = render({
      kind: 'approved',
      application,
      startsAt: new Date('2026-11-23T10:00:00+09:00'),
      endsAt: new Date('2027-01-22T10:00:00+09:00'),
      statusToken: 'tok',
      locale: 'en',
    });
    expect(approval.subject).toBe('[HUFS Bus] Your ad is approved (application no. 7)');
    expect(approval.text.split('\n\n').slice(0, 2)).toEqual([
      'We found your deposit and approved your ad. It runs during the period below.',
      'Ad type: Web banner ad\nTitle: 캠퍼스 카페\nAd period: Nov 23, 2026 – Jan 22, 2027',
    ]);
    const rejection = (reason: string | null) =>
      render({ kind: 'rejected', application, reason, statusToken: 'tok', locale: 'en' });
    expect(rejection(null).subject).toBe('[HUFS Bus] The review of your ad application (application no. 7)');
    expect(rejection(null).text).toContain('We are sorry: we decided not to run your ad.');
    expect(rejection(null).text).toContain('Reason: No reason was given.');
    expect(rejection('이미지가 흐립니다').text).toContain('Reason: 이미지가 흐립니다');
  });

  it('the reply to an inquiry quotes it under its English date', () => {
    const reply = render({
      kind: 'inquiry-reply',
      inquiryId: 3,
      reply: 'Thank you.',
      content: 'When does 1150 come?',
      askedAt: new Date('2026-11-28T09:00:00+09:00'),
      locale: 'en',
    });
    expect(reply.subject).toBe('[HUFS Bus] A reply to your inquiry');
    expect(reply.text).toContain('Your inquiry of Nov 28, 2026:\n> When does 1150 come?');
    expect(reply.text).toContain(`Contact HUFS Bus: ${BASE_URL}/contact`);
    expect(reply.html).toContain('<html lang="en">');
  });

  it('a Korean letter is unchanged by the language: no locale and locale "ko" render the same', () => {
    const letter = { kind: 'rejected', application, reason: null, statusToken: 'tok' } as const;
    expect(render({ ...letter, locale: 'ko' })).toEqual(render(letter));
    expect(render(letter).subject).toBe('[외대 버스] 광고 신청 검토 결과를 알려드립니다 (신청 번호 7)');
    expect(render(letter).html).toContain('<html lang="ko">');
  });
});
