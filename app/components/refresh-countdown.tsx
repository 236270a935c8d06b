/** The visible refresh countdown (spec §2 Home screen): mm:ss, or the refreshing text at 0 or below. */
import { formatCountdown, REFRESHING_TEXT } from '~/utils/countdown';

export function RefreshCountdown({ secondsLeft }: { secondsLeft: number }) {
  return (
    <p className="countdown">
      {secondsLeft <= 0 ? (
        REFRESHING_TEXT
      ) : (
        <>
          <span className="countdown__label">다음 새로고침</span>{' '}
          <span className="countdown__value">{formatCountdown(secondsLeft)}</span>
        </>
      )}
    </p>
  );
}
