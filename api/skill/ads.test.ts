import { BasicCardSchema, KAKAO_LIMITS } from '../../contract/skill';
import { adCard, AD_BUTTON_LABEL } from './ads';

const BASE = 'https://bus.example.com';
const ad = (fields: Partial<Parameters<typeof adCard>[0]> = {}): Parameters<typeof adCard>[0] => ({
  id: 7,
  type: 'kakao',
  title: '캠퍼스 카페',
  redirectUrl: 'https://cafe.example.com/menu',
  imageUrl: '/images/kakao-x.png',
  content: '오늘의 메뉴',
  lang: 'ko',
  position: 0,
  startsAt: new Date('2026-11-01T00:00:00Z'),
  endsAt: new Date('2026-12-01T00:00:00Z'),
  applicationId: null,
  createdAt: new Date('2026-11-01T00:00:00Z'),
  updatedAt: new Date('2026-11-01T00:00:00Z'),
  ...fields,
});

describe('adCard', () => {
  it('makes the image path and the click redirect absolute on PUBLIC_BASE_URL', () => {
    expect(BasicCardSchema.parse(adCard(ad(), BASE))).toEqual({
      title: '캠퍼스 카페',
      description: '오늘의 메뉴',
      thumbnail: { imageUrl: `${BASE}/images/kakao-x.png`, altText: '캠퍼스 카페', fixedRatio: false },
      buttons: [{ action: 'webLink', label: AD_BUTTON_LABEL, webLinkUrl: `${BASE}/ads/click/7` }],
    });
  });

  it('keeps an absolute https image URL, and makes no card without one', () => {
    expect(adCard(ad({ imageUrl: 'https://cdn.example.com/k.png' }), undefined)).toEqual({
      title: '캠퍼스 카페',
      description: '오늘의 메뉴',
      thumbnail: { imageUrl: 'https://cdn.example.com/k.png', altText: '캠퍼스 카페', fixedRatio: false },
    });
    expect(adCard(ad(), undefined)).toBeNull();
    expect(adCard(ad({ imageUrl: 'http://cdn.example.com/k.png' }), BASE)).toBeNull();
    expect(adCard(ad({ imageUrl: null }), BASE)).toBeNull();
  });

  it('has no button without an http(s) link, and cuts text to Kakao’s limits', () => {
    expect(adCard(ad({ redirectUrl: null }), BASE)).not.toHaveProperty('buttons');
    expect(adCard(ad({ redirectUrl: 'javascript:alert(1)' }), BASE)).not.toHaveProperty('buttons');
    const long = adCard(ad({ title: '가'.repeat(80), content: '나'.repeat(300) }), BASE)!;
    expect(BasicCardSchema.parse(long).title).toHaveLength(KAKAO_LIMITS.basicCardTitle);
    expect(long.description).toHaveLength(KAKAO_LIMITS.basicCardDescription);
    expect(long.description!.endsWith('…')).toBe(true);
    expect(BasicCardSchema.parse(long).thumbnail.altText).toHaveLength(KAKAO_LIMITS.thumbnailAltText);
    expect(adCard(ad({ title: null, content: '  ' }), BASE)).toEqual({
      thumbnail: { imageUrl: `${BASE}/images/kakao-x.png`, fixedRatio: false },
      buttons: [{ action: 'webLink', label: AD_BUTTON_LABEL, webLinkUrl: `${BASE}/ads/click/7` }],
    });
  });
});
