/**
 * A stop's name in the page's language (docs/product.md §1 Languages): in Korean the sign's name; in
 * English the stop's English name (contract/transit.ts STOP_NAMES_EN) with the sign's Korean beside
 * it, marked `lang="ko"`.
 */
import { Fragment } from 'react';
import { useLocale } from '~/i18n/i18n';
import { STOP_NAMES_EN } from '../../contract/transit';

type Stop = keyof typeof STOP_NAMES_EN;

/** One stop, e.g. 외대사거리 → "HUFS Crossroads 외대사거리" on an English page. */
export function StopName({ name }: { name: Stop }) {
  const locale = useLocale();
  if (locale === 'ko') return <>{name}</>;
  return (
    <>
      {STOP_NAMES_EN[name]}{' '}
      <span className="stop__name-ko" lang="ko">
        {name}
      </span>
    </>
  );
}

/** Stops in order, joined by arrows: "외대사거리 → 모현사거리 → …". */
export function StopNames({ names }: { names: readonly Stop[] }) {
  const locale = useLocale();
  if (locale === 'ko') return <>{names.join(' → ')}</>;
  return (
    <>
      {names.map((name, index) => (
        <Fragment key={name}>
          {index > 0 && ' → '}
          <StopName name={name} />
        </Fragment>
      ))}
    </>
  );
}
