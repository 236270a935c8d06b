/** Names the admin ad pages share (spec §2: web is the banner, kakao the chatbot). */
import type { AdType } from '../../contract/ads';

/** The ad type in the admins' words. */
export const AD_TYPE_NAMES: Record<AdType, string> = { web: '웹 광고', kakao: '챗봇 광고' };

/** Request status badges: pending is marked for review; decided ones say how. */
export const REQUEST_STATUS_LABELS = { pending: '검토 대기', approved: '승인됨', rejected: '거절됨' } as const;

/** Whether an imageUrl can be shown: one of this site's /images/ paths or an http(s) URL (never javascript: or data:). */
export function isShowableImage(url: string | null | undefined): url is string {
  return !!url && (/^\/images\/[^/]+$/.test(url) || /^https?:\/\//i.test(url));
}
