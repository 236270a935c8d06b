/**
 * The ad application the browser tests and `npm run screenshots` send to the api
 * (POST /api/ads/{type}/submit, docs/product.md §7): a shop's contact, a month, and for a
 * chatbot ad its message.
 */
import type { AdType } from '../../contract/ads';

export function adApplicationBody(ad: { type: AdType; title: string; redirectUrl: string; imageUrl: string }) {
  return {
    ...ad,
    applicantName: '김모현',
    applicantPhone: '01012345678',
    applicantEmail: 'shop@example.com',
    duration: 1,
    confirmed: false,
    ...(ad.type === 'kakao' ? { content: '학생증 보여주면 음료 서비스!' } : {}),
  };
}
