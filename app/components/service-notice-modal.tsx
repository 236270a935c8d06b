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
import type { ServiceNotice } from '../../contract/admin';
import { useModalDialog } from '~/components/dialog';

export function ServiceNoticeModal({ notice }: { notice: Omit<ServiceNotice, 'enabled'> }) {
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
        <h2 id={titleId} className="dialog__title">
          {notice.title}
        </h2>
        <p id={textId} className="service-notice__text">
          {notice.text}
        </p>
        <p className="service-notice__help">
          궁금한 점은 <Link to="/contact">문의하기</Link>로 남겨주세요.
        </p>
      </dialog>
    </>
  );
}
