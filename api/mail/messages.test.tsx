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
