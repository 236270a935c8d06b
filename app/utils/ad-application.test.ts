import { parseWithZod } from '@conform-to/zod';
import { AD_FORMAT_MESSAGES } from '../../contract/ads';
import {
  AdApplicationFormSchema,
  detectImageType,
  formatPhone,
  orderedErrors,
  phoneDigits,
} from '~/utils/ad-application';
import { formatWon, priceWon } from '../../contract/prices';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const form = (fields: Record<string, string | File>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};
const image = () => new File([PNG], 'shop.png', { type: 'image/png' });
const valid = {
  type: 'web',
  title: '모현 분식',
  applicantName: '김모현',
  applicantPhone: '010-1234-5678',
  email: 'shop@example.com',
  duration: '2',
};
const errorsOf = (fields: Record<string, string | File>) => {
  const submission = parseWithZod(form(fields), { schema: AdApplicationFormSchema });
  return submission.status === 'success' ? [] : orderedErrors(submission.error).map((error) => error.message);
};

describe('the ad application form (docs/product.md §5)', () => {
  it('gives every required-field message, in the spec check order with the image first', () => {
    expect(errorsOf({})).toEqual([
      '이미지를 업로드해주세요.',
      '광고 유형을 선택해주세요.',
      '제목을 입력해주세요.',
      '이름을 입력해주세요.',
      '전화번호를 입력해주세요.',
      '이메일을 입력해주세요.',
      '광고 게재 기간을 선택해주세요.',
    ]);
    // An empty file input (no file chosen) is a missing image; kakao needs its message, last.
    expect(errorsOf({ image: new File([], ''), type: 'kakao' })).toEqual([
      '이미지를 업로드해주세요.',
      '제목을 입력해주세요.',
      '이름을 입력해주세요.',
      '전화번호를 입력해주세요.',
      '이메일을 입력해주세요.',
      '광고 게재 기간을 선택해주세요.',
      '광고 메시지를 입력해주세요.',
    ]);
  });

  it('counts blank and whitespace-only text as missing', () => {
    expect(errorsOf({ ...valid, image: image(), title: '   ', applicantName: '\t\n', email: ' ' })).toEqual([
      '제목을 입력해주세요.',
      '이름을 입력해주세요.',
      '이메일을 입력해주세요.',
    ]);
    expect(errorsOf({ ...valid, image: image(), type: 'kakao', content: '  ' })).toEqual([
      '광고 메시지를 입력해주세요.',
    ]);
  });

  it('accepts a complete web application, trimming the text and dropping the phone hyphens', () => {
    const submission = parseWithZod(form({ ...valid, image: image(), title: '  모현 분식 ', redirectUrl: '' }), {
      schema: AdApplicationFormSchema,
    });
    expect(submission.status).toBe('success');
    if (submission.status !== 'success') return;
    expect(submission.value).toMatchObject({
      type: 'web',
      title: '모현 분식',
      applicantPhone: '01012345678',
      email: 'shop@example.com',
      duration: 2,
      redirectUrl: undefined,
    });
  });

  it('refuses bad formats: duration, phone, e-mail, and a link that is not http(s)', () => {
    const errors = (fields: Record<string, string>) => errorsOf({ ...valid, image: image(), ...fields });
    expect(errors({ duration: '4' })).toEqual(['광고 게재 기간을 선택해주세요.']);
    expect(errors({ type: 'banner' })).toEqual(['광고 유형을 선택해주세요.']);
    expect(errors({ applicantPhone: '1234' })).toEqual([AD_FORMAT_MESSAGES.phone]);
    expect(errors({ email: 'not-an-email' })).toEqual([AD_FORMAT_MESSAGES.email]);
    for (const redirectUrl of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'ftp://example.com', 'example.com']) {
      expect(errors({ redirectUrl })).toEqual([AD_FORMAT_MESSAGES.redirectUrl]);
    }
    expect(errors({ redirectUrl: 'https://example.com/menu' })).toEqual([]);
  });

  it('refuses an image over 5 MB', () => {
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png');
    expect(errorsOf({ ...valid, image: big })).toEqual([AD_FORMAT_MESSAGES.imageSize]);
  });
});

describe('phone (docs/product.md §5: digits only, shown 3-4-4)', () => {
  it('keeps digits only and formats as typed', () => {
    expect(phoneDigits('010-1234-5678')).toBe('01012345678');
    expect(phoneDigits('0１0 abc 12')).toBe('0012');
    expect(formatPhone('0')).toBe('0');
    expect(formatPhone('0101')).toBe('010-1');
    expect(formatPhone('0101234')).toBe('010-1234');
    expect(formatPhone('01012345678')).toBe('010-1234-5678');
    expect(formatPhone('010123456789')).toBe('010-1234-5678');
    expect(formatPhone('010-1234-5678')).toBe('010-1234-5678');
  });
});

describe('detectImageType (docs/product.md §5: the first 4 bytes)', () => {
  it('knows jpg, png and gif by their magic numbers, whatever the file is called', () => {
    expect(detectImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpg');
    expect(detectImageType(PNG)).toBe('png');
    expect(detectImageType(new TextEncoder().encode('GIF89a'))).toBe('gif');
  });

  it('refuses text, SVG and anything shorter than a signature', () => {
    expect(detectImageType(new TextEncoder().encode('hello'))).toBeNull();
    expect(detectImageType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageType(new Uint8Array([0x89, 0x50]))).toBeNull();
  });
});

describe('price (docs/product.md §9)', () => {
  it('is 26,000원 per month', () => {
    expect([1, 2, 3].map((months) => formatWon(priceWon(months)))).toEqual(['26,000원', '52,000원', '78,000원']);
  });
});
