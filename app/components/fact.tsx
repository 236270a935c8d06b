import type { ReactNode } from 'react';

/**
 * One term and its value inside a `<dl>`: a `<div>` holding the `<dt>` and its `<dd>` (an
 * applicant's status page, a managed ad's figures).
 */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
