/**
 * A dialog whose open state lives in the URL (the admin pages' confirm and completion steps, spec
 * §4): the server renders it `open`, so it shows without JavaScript as an overlay, and its buttons
 * are links and forms. With JavaScript it is upgraded to a real modal (showModal: focus moves into
 * it and stays there, Esc closes it, the page behind is inert); closing it goes to `closeTo`.
 * docs/product.md §9: 400px wide.
 */
import { Form, Link, useNavigate, useNavigation } from '@remix-run/react';
import { useEffect, useId, useLayoutEffect, useRef, type ComponentProps, type ReactNode, type RefObject } from 'react';
import type { Flash } from '~/models/session.server';

/** A layout effect in the browser (no frame between mount and showModal), none on the server. */
const useBrowserLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Upgrades the dialog of `ref`, rendered `open` so it shows without JavaScript, to a modal
 * (showModal: focus trap, Esc, backdrop) once mounted in the browser. `onClosed` runs when the
 * person closes it (Esc); `onUnmountedOpen` when it leaves the page still open (the URL closed it:
 * Back, Forward). The latest callbacks are used.
 */
export function useModalDialog(
  ref: RefObject<HTMLDialogElement>,
  onClosed: () => void,
  onUnmountedOpen: () => void = () => {},
): void {
  const callbacks = useRef({ onClosed, onUnmountedOpen });
  useEffect(() => {
    callbacks.current = { onClosed, onUnmountedOpen };
  });
  useBrowserLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    let upgrading = false;
    // NOTE: Chrome queues the close event, a DOM shim may fire it at once: either way, a dialog
    // that is open again (or being upgraded) was not closed by the person.
    const onClose = () => {
      if (!upgrading && !dialog.open) callbacks.current.onClosed();
    };
    dialog.addEventListener('close', onClose);
    upgrading = true;
    if (dialog.open) dialog.close();
    dialog.showModal();
    upgrading = false;
    return () => {
      dialog.removeEventListener('close', onClose);
      if (dialog.open) {
        dialog.close();
        callbacks.current.onUnmountedOpen();
      }
    };
  }, [ref]);
}

export function Dialog({
  title,
  closeTo,
  message,
  body,
  children,
}: {
  title: string;
  /** Where Esc (or the dialog closing otherwise) leads: the page without the dialog. */
  closeTo: string;
  /** The question or the outcome, read with the title (aria-describedby). */
  message: ReactNode;
  /** Fields between the message and the buttons (of the buttons' form, by their `form` attribute). */
  body?: ReactNode;
  /** The buttons (links and forms, so they work without JavaScript). */
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const messageId = useId();
  const navigate = useNavigate();
  useModalDialog(ref, () => navigate(closeTo, { replace: true, preventScrollReset: true }));

  return (
    <dialog ref={ref} open className="dialog" role="alertdialog" aria-labelledby={titleId} aria-describedby={messageId}>
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <p id={messageId}>{message}</p>
      {body}
      <div className="dialog__actions">{children}</div>
    </dialog>
  );
}

/**
 * The buttons of a confirm step: a link back to `page` (cancel) and a form posting `intent` (with
 * `id` when given) to it, or to `action`, disabled while a navigation is under way. Works without
 * JavaScript.
 */
export function ConfirmActions({
  page,
  intent,
  id,
  cancelLabel,
  confirmLabel,
  multipart = false,
  action = page,
  formProps,
}: {
  page: string;
  intent: string;
  id?: number;
  cancelLabel: string;
  confirmLabel: string;
  /** The page's action reads multipart bodies (the ad edit page). */
  multipart?: boolean;
  /** Where the form posts; default `page` (the reject dialog posts to its own URL, so a refusal keeps it open). */
  action?: string;
  /** conform's props of the form (getFormProps), when the dialog's body has fields of it (their `form` attribute). */
  formProps?: ComponentProps<typeof Form>;
}) {
  const navigation = useNavigation();
  return (
    <>
      <Link to={page} className="button" replace preventScrollReset>
        {cancelLabel}
      </Link>
      <Form method="post" action={action} encType={multipart ? 'multipart/form-data' : undefined} {...formProps}>
        {id !== undefined && <input type="hidden" name="id" value={id} />}
        <button
          type="submit"
          name="intent"
          value={intent}
          className="button button--primary"
          disabled={navigation.state !== 'idle'}
        >
          {confirmLabel}
        </button>
      </Form>
    </>
  );
}

/**
 * The completion step of an admin action (docs/product.md §2: 'Completed' with a 확인 button): the flash's
 * title, else '완료' or '처리하지 못했습니다' by its tone, its message, and 확인 back to `closeTo`
 * (replacing the entry, so Back does not show the dialog again).
 */
export function CompletionDialog({ flash, closeTo }: { flash: Flash; closeTo: string }) {
  return (
    <Dialog
      title={flash.title ?? (flash.tone === 'success' ? '완료' : '처리하지 못했습니다')}
      closeTo={closeTo}
      message={flash.message}
    >
      <Link to={closeTo} className="button button--primary" replace preventScrollReset>
        확인
      </Link>
    </Dialog>
  );
}
