/** Rendering a part of a page in English, as an English page's provider has it (app/i18n; docs/product.md §1 Languages). */
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nProvider } from '~/i18n/i18n';
import en from '~/i18n/compiled/en.js';

/** testing-library's render of `page` inside the English provider. */
export const renderInEnglish = (page: ReactNode) =>
  render(
    <I18nProvider locale="en" english={en}>
      {page}
    </I18nProvider>,
  );

/** Any Hangul syllable: text an English page shows outside an element marked `lang="ko"` must have none. */
export const HANGUL = /[\uac00-\ud7a3]/;
