/**
 * What an English page must not have (docs/product.md §1 Languages): Korean a rider sees or hears
 * outside an element marked `lang="ko"`. Shared by the English browser tests.
 */
import type { Page } from './test';

/**
 * The Korean a rider meets on `page` outside an element marked `lang="ko"`: the text of every
 * rendered element (what `checkVisibility` shows), the title, and the words read out or shown in
 * place of content (aria-label, alt, placeholder, title, value of a button).
 */
export function koreanOutsideKo(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const hangul = /[\uac00-\ud7a3]/;
    const korean = (element: Element) => element.closest('[lang]')?.getAttribute('lang') === 'ko';
    const found: string[] = [];
    if (hangul.test(document.title)) found.push(`title: ${document.title}`);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || korean(parent) || !hangul.test(node.textContent ?? '')) continue;
      if (parent.closest('script, style, template') || !parent.checkVisibility({ visibilityProperty: true })) continue;
      found.push(`${parent.tagName.toLowerCase()}: ${node.textContent!.trim()}`);
    }
    for (const element of document.querySelectorAll(
      '[aria-label], [alt], [placeholder], [title], input[type="submit"]',
    )) {
      if (korean(element)) continue;
      for (const name of ['aria-label', 'alt', 'placeholder', 'title', 'value']) {
        const value = element.getAttribute(name);
        if (value && hangul.test(value)) found.push(`${element.tagName.toLowerCase()}[${name}]: ${value}`);
      }
    }
    return found;
  });
}
