/**
 * A card's bell (docs/decisions/033-web-push-reminders.md): "tell me when this route's bus is N
 * minutes away" (up: from the campus stop; down: before its predicted departure), N = 3, 5 or 10.
 * A disclosure (<details>) that works from the keyboard and without JavaScript, where it says what a
 * reminder needs; once the page runs, it offers only what can work here: the minutes, or why not
 * (an unsupported browser, blocked notifications, iOS outside the installed app, with the steps to
 * add it). A reminder set shows as a filled bell, with its cancel. Its panel lies over the page
 * below the bell, so opening it moves nothing.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { REMINDER_LEAD_MINUTES } from '../../contract/reminder-leads';
import type { Direction } from '../../contract/transit';
import { useReminder, type ReminderFailure } from '~/hooks/use-reminder';
import { useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';
import { IosInstallSteps } from './install-hint';

/** What a failed set says, by the answer's status (REMINDER_MESSAGES' cases; 0 and others: failed). */
const FAILURE_KEYS: Record<number, keyof typeof home> = {
  409: 'bell.tooMany',
  422: 'bell.noBus',
  429: 'bell.limited',
  503: 'bell.off',
};

export function ReminderBell({ routeNo, direction }: { routeNo: string; direction: Direction }) {
  const t = useT(home);
  const { state, set, cancel } = useReminder(routeNo, direction);
  const [busy, setBusy] = useState(false);
  /** What the live region says: a failure (shown), or a success (for screen readers: the panel shows it). */
  const [said, setSaid] = useState<{ key: keyof typeof home; failure: boolean } | null>(null);
  const details = useRef<HTMLDetailsElement>(null);
  const summary = useRef<HTMLElement>(null);
  const statusId = useId();
  const saidMinutes = state.kind === 'set' ? state.reminder.leadMin : 0;
  const label =
    state.kind === 'set'
      ? t('bell.openSet', { routeNo, minutes: state.reminder.leadMin })
      : t('bell.open', { routeNo });

  const run = async (
    work: () => Promise<ReminderFailure | null>,
    done: keyof typeof home,
    failed: (status: number) => keyof typeof home,
  ) => {
    setBusy(true);
    setSaid(null);
    const outcome = await work();
    setBusy(false);
    setSaid(outcome ? { key: failed(outcome.status), failure: true } : { key: done, failure: false });
    // The button pressed is gone (the panel changed): the focus goes back to the bell, whose name says the state.
    if (!outcome) summary.current?.focus();
  };
  // Escape closes the open panel and returns the focus to the bell, as a disclosure's panel should.
  useEffect(() => {
    const element = details.current;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !element?.open) return;
      element.open = false;
      summary.current?.focus();
    };
    element?.addEventListener('keydown', closeOnEscape);
    return () => element?.removeEventListener('keydown', closeOnEscape);
  }, []);

  return (
    <details ref={details} className="bell">
      <summary
        ref={summary}
        className={state.kind === 'set' ? 'bell__button bell__button--set' : 'bell__button'}
        aria-label={label}
      >
        <BellIcon filled={state.kind === 'set'} />
      </summary>
      <div className="bell__panel" role="group" aria-label={label}>
        {state.kind === 'pending' && <p>{t('bell.needs')}</p>}
        {state.kind === 'unsupported' && <p>{t('bell.unsupported')}</p>}
        {state.kind === 'denied' && <p>{t('bell.denied')}</p>}
        {state.kind === 'install' && (
          <>
            <p>{t('bell.install')}</p>
            <IosInstallSteps />
          </>
        )}
        {state.kind === 'ready' && (
          <>
            <p id={statusId}>{t(direction === 'up' ? 'bell.upPrompt' : 'bell.downPrompt')}</p>
            <div className="bell__leads" role="group" aria-labelledby={statusId}>
              {REMINDER_LEAD_MINUTES.map((minutes) => (
                <button
                  key={minutes}
                  type="button"
                  className="button bell__lead"
                  disabled={busy}
                  onClick={() =>
                    run(
                      () => set(minutes),
                      direction === 'up' ? 'bell.set' : 'bell.setDown',
                      (status) => FAILURE_KEYS[status] ?? 'bell.failed',
                    )
                  }
                >
                  {t('bell.lead', { minutes })}
                </button>
              ))}
            </div>
            {!state.granted && <p className="bell__hint">{t('bell.permission')}</p>}
          </>
        )}
        {state.kind === 'set' && (
          <>
            <p>{t(direction === 'up' ? 'bell.set' : 'bell.setDown', { minutes: state.reminder.leadMin })}</p>
            <button
              type="button"
              className="button bell__cancel"
              disabled={busy}
              onClick={() => run(cancel, 'bell.cancelled', () => 'bell.cancelFailed')}
            >
              {t('bell.cancel')}
            </button>
          </>
        )}
        {/* Always in the page (a live region must be there before it speaks); seen only for a failure. */}
        <p className={said?.failure ? 'bell__status' : 'bell__status sr-only'} aria-live="polite">
          {busy ? t('bell.working') : said ? t(said.key, { minutes: saidMinutes }) : ''}
        </p>
      </div>
    </details>
  );
}

/** A bell, outlined or filled (a reminder set); decorative: the summary's label says it. */
function BellIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path
        d="M12 3a6 6 0 0 0-6 6v3.6L4.3 15.4A1 1 0 0 0 5.2 17h13.6a1 1 0 0 0 .9-1.6L18 12.6V9a6 6 0 0 0-6-6Zm-2.5 15a2.5 2.5 0 0 0 5 0"
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </svg>
  );
}
