import { auditTargetLabel } from './audit-target.server';

describe('auditTargetLabel', () => {
  it.each([
    ['ad-request:web:1', '웹 배너 광고 신청 1번'],
    ['ad-request:kakao:12', '챗봇 광고 신청 12번'],
    ['ad:kakao:3', '챗봇 광고 3번'],
    ['ads:web', '웹 배너 광고 순서'],
    ['admin:alice:ops', '관리자 alice:ops'],
    ['inquiry:3', '문의 3번'],
    ['mail:7', '메일 7번'],
    ['notice', '서비스 공지'],
    ['gbis-config', '버스 정보 설정'],
    ['something-new:1', 'something-new:1'],
  ])('says %s as %s', (target, label) => {
    expect(auditTargetLabel(target)).toBe(label);
  });
});
