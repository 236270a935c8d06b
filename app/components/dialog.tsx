/**
 * A dialog whose open state lives in the URL (the admin pages' confirm and completion steps, spec
 * §4): the server renders it `open`, so it shows without JavaScript as an overlay, and its buttons
 * are links and forms. With JavaScript it is upgraded to a real modal (showModal: focus moves into
 * it and stays there, Esc closes it, the page behind is inert); closing it goes to `closeTo`.
 * Spec §9: 400px wide.
 */
import { useNavigate } from '@remix-run/react';
import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';

const useBrowserLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

export function Dialog({
  title,
  closeTo,
  alert = false,
  children,
}: {
  title: string;
  /** Where Esc (or the dialog closing otherwise) leads: the page without the dialog. */
  closeTo: string;
  /** An alertdialog (a confirmation or an outcome the admin must acknowledge). */
  alert?: boolean;
  /** The message and the buttons (links and forms, so they work without JavaScript). */
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const navigate = useNavigate();
  const onClosed = useRef(() => {});
  useEffect(() => {
    onClosed.current = () => navigate(closeTo, { replace: true, preventScrollReset: true });
  });

  useBrowserLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    let upgrading = false;
    const onClose = () => {
      if (!upgrading && !dialog.open) onClosed.current();
    };
    dialog.addEventListener('close', onClose);
    // Rendered `open` (so it shows without JavaScript): reopen it as a modal.
    upgrading = true;
    if (dialog.open) dialog.close();
    dialog.showModal();
    upgrading = false;
    return () => {
      dialog.removeEventListener('close', onClose);
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog ref={ref} open className="dialog" role={alert ? 'alertdialog' : undefined} aria-labelledby={titleId}>
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      {children}
    </dialog>
  );
}
