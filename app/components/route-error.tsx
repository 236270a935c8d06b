/** Korean error screens shared by the routes' ErrorBoundary exports (house style: one on every route). */
import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react';
import { useHydrated } from '~/hooks/use-hydrated';

/** The 404 page body: used by the catch-all route and for 404 responses caught by a boundary. */
export function NotFound() {
  return <ErrorPanel title="페이지를 찾을 수 없습니다.">주소가 바뀌었거나 없는 페이지입니다.</ErrorPanel>;
}

/**
 * Renders the error caught by the enclosing route's ErrorBoundary, without its details (docs/product.md §8:
 * error codes are not shown). A client-side navigation that failed because the phone is offline
 * says so, in the words of the service worker's offline page (app/offline.html).
 */
export function RouteError() {
  const error = useRouteError();
  const hydrated = useHydrated();
  if (hydrated && !navigator.onLine) {
    return (
      <ErrorPanel title="오프라인 상태입니다">
        실시간 버스 정보는 인터넷에 연결되어 있어야 볼 수 있습니다. 연결을 확인한 뒤 다시 시도해주세요.
      </ErrorPanel>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <ErrorPanel title="요청을 처리할 수 없습니다.">
        다른 사이트에서 보낸 요청이거나 허용되지 않은 요청입니다.
      </ErrorPanel>
    );
  }
  return <ErrorPanel title="문제가 발생했습니다.">일시적인 오류일 수 있습니다. 잠시 후 다시 시도해주세요.</ErrorPanel>;
}

/** An error screen: its heading, one sentence, and a way home. */
export function ErrorPanel({ title, children }: { title: string; children: string }) {
  return (
    <section className="error-panel" aria-labelledby="error-title">
      <h1 id="error-title">{title}</h1>
      <p>{children}</p>
      <Link to="/" className="button">
        홈으로 가기
      </Link>
    </section>
  );
}
