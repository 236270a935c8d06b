/**
 * The home screen's blocking service-suspension modal (docs/product.md §1, §4), shown while the admins' notice
 * is on. The server renders it open with a backdrop that takes every click, and the home renders
 * the page behind it `inert`, so it blocks without JavaScript too. With JavaScript it becomes a
 * real modal (showModal: focus moves into it and stays there); Esc does not close it, and if the
 * browser closes it anyway (Chrome lets a repeated Esc through) it opens again. A screen reader
 * announces it as an alert dialog, with its text as the description.
 */
import { Link } from '@remix-run/react';
import { useId, useRef } from 'react';
import type { PublicNotice } from '../../contract/admin';
import type { Locale } from '../../contract/locales';
import { useModalDialog } from '~/components/dialog';
import { useLocale, useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';

/**
 * The notice's title and text in `locale`, and the language they are in: the English when both are
 * given, else the Korean (docs/product.md §1 Languages). Here, not in contract/admin.ts: the home
 * would carry that module's zod.
 */
function noticeIn(notice: PublicNotice, locale: Locale): { title: string; text: string; lang: Locale } {
  return locale === 'en' && notice.titleEn && notice.textEn
    ? { title: notice.titleEn, text: notice.textEn, lang: 'en' }
    : { title: notice.title, text: notice.text, lang: 'ko' };
}

/** The notice in the page's language: its English on an English page when the admins gave one, else its Korean (marked so). */
export function ServiceNoticeModal({ notice }: { notice: PublicNotice }) {
  const t = useT(home);
  const locale = useLocale();
  const { title, text, lang } = noticeIn(notice, locale);
  const marked = lang === locale ? {} : { lang };
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  useModalDialog(ref, () => ref.current?.showModal());

  return (
    <>
      <div className="service-notice__backdrop" aria-hidden="true" />
      <dialog
        ref={ref}
        open
        className="dialog service-notice"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        onCancel={(event) => event.preventDefault()}
      >
        <h2 id={titleId} className="dialog__title" {...marked}>
          {title}
        </h2>
        <p id={textId} className="service-notice__text" {...marked}>
          {text}
        </p>
        <p className="service-notice__help">
          {t('notice.helpBefore')}
          <Link to="/contact">{t('notice.helpLink')}</Link>
          {t('notice.helpAfter')}
        </p>
      </dialog>
    </>
  );
}
