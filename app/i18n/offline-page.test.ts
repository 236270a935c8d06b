/**
 * The installable app in each language (docs/decisions/009-installable-app.md; docs/product.md §1
 * Languages): the offline page filled from the catalogs, Korean as it always was; the English
 * manifest the Korean one but for its name, description and language, taken from the catalogs.
 */
import { readFileSync } from 'node:fs';
import { HANGUL } from '../../tests/setup/english';
import { offlinePage } from './offline-page';
import common from './compiled/ko/common.js';
import english from './compiled/en.js';

const template = readFileSync('app/offline.html', 'utf8');
const manifest = (name: string) => JSON.parse(readFileSync(`public/${name}`, 'utf8')) as Record<string, unknown>;

describe('the offline page', () => {
  it('is the Korean page it was, in Korean', () => {
    const page = offlinePage(template, 'ko');
    expect(page).toContain('<html lang="ko">');
    expect(page).toContain('<title>오프라인 — 외대 버스</title>');
    expect(page).toContain('/>외대 버스</a>');
    expect(page).toContain('<p class="site-header__note">본 서비스는 한국외국어대학교와 무관합니다.</p>');
    expect(page).toContain('<h1 class="page__title">오프라인 상태입니다</h1>');
    expect(page).toContain(
      '<p class="page__lead">실시간 버스 정보는 인터넷에 연결되어 있어야 볼 수 있습니다. 연결을 확인한 뒤 다시 시도해주세요.</p>',
    );
    expect(page).toContain('<a href="/" class="button button--primary">다시 시도</a>');
    expect(page).not.toContain('{{');
  });

  it('is in English, with no Korean left', () => {
    const page = offlinePage(template, 'en');
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<title>Offline — HUFS Bus</title>');
    expect(page).toContain('<h1 class="page__title">You are offline</h1>');
    expect(page).toContain('>Try again</a>');
    expect(page.replace(/<!--[\s\S]*?-->/, '')).not.toMatch(HANGUL);
  });

  it('refuses a placeholder it has no message for', () => {
    expect(() => offlinePage('<p>{{offline.nothing}}</p>', 'en')).toThrow('{{offline.nothing}}');
  });
});

describe('the manifest of each language', () => {
  it('names and describes the app in its language, as the pages do', () => {
    const ko = manifest('manifest.webmanifest');
    const en = manifest('manifest.en.webmanifest');
    expect(en).toEqual({
      ...ko,
      name: english['site.name'](),
      short_name: english['site.name'](),
      description: english['home.description'](),
      lang: 'en',
    });
    expect(ko).toMatchObject({ name: common['site.name'](), lang: 'ko' });
  });
});
