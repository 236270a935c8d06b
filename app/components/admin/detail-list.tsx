import type { ReactNode } from 'react';

/**
 * Labelled values as the admin pages list them (`.detail-list`): a row per [label, value], then
 * `children` for rows that need their own markup (a link, an image).
 */
export function DetailList({ rows, children }: { rows: [label: string, value: ReactNode][]; children?: ReactNode }) {
  return (
    <dl className="detail-list">
      {rows.map(([label, value]) => (
        <div key={label} className="detail-list__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      {children}
    </dl>
  );
}
