/**
 * The activity log's targets in an admin's words (api/admin/audit.ts names them: "ad-request:web:1",
 * "ad:kakao:3", "inquiry:3", …): "웹 배너 광고 신청 1번". An unknown name is shown as it is.
 */
import { AD_TYPE_LABELS, type AdType } from '../../contract/ads';

const isAdType = (value: string): value is AdType => value === 'web' || value === 'kakao';

/** `target` as an admin reads it. */
export function auditTargetLabel(target: string): string {
  const [kind, first, second] = target.split(':');
  if (kind === 'ad-request' && isAdType(first)) return `${AD_TYPE_LABELS[first]} 신청 ${second}번`;
  if (kind === 'ad' && isAdType(first)) return `${AD_TYPE_LABELS[first]} ${second}번`;
  if (kind === 'ads' && isAdType(first)) return `${AD_TYPE_LABELS[first]} 순서`;
  if (kind === 'admin' && first) return `관리자 ${target.slice('admin:'.length)}`;
  if (kind === 'inquiry' && first) return `문의 ${first}번`;
  if (kind === 'mail' && first) return `메일 ${first}번`;
  if (target === 'notice') return '서비스 공지';
  if (target === 'gbis-config') return '버스 정보 설정';
  return target;
}
