/**
 * Korean words a page shows in any language (docs/product.md §1 Languages): a bus's licence plate
 * (GBIS plateNo, e.g. 경기70아1234) reads as painted on the bus. On a page in another language they
 * are marked `lang="ko"`, so a screen reader reads them in Korean; on a Korean page they are plain text.
 */
import { Fragment, type ReactNode } from 'react';
import { useLocale } from '~/i18n/i18n';

export function KoreanText({ children }: { children: string }) {
  return useLocale() === 'ko' ? <>{children}</> : <span lang="ko">{children}</span>;
}

/** `parts` with `separator` between them, as one run of text and elements (", ", " · "). */
export function joined(parts: readonly ReactNode[], separator: string): ReactNode {
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && separator}
      {part}
    </Fragment>
  ));
}
