import type { ReactNode } from 'react';

/** An admin page: a region named by its one h1 (`title`, id `${id}-title`), then its content. */
export function AdminPage({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="admin-page">
      <h1 id={`${id}-title`} className="admin-page__title">
        {title}
      </h1>
      {children}
    </section>
  );
}
