import type { ReactNode } from 'react';

/**
 * An admin table whose first column heads its rows (the backtest tables, the audit log, GBIS
 * discovery's candidates). On a narrow screen each row stacks into a block headed by its row
 * header, each cell beside its column's name (`data-label`, drawn by app/styles/admin.css "Stacked
 * tables"), so a phone never scrolls it sideways. The roles are stated, since a table drawn with
 * other CSS displays may lose its implicit ones in some browsers. With no rows, `empty` fills one
 * cell across the columns.
 */
export function StackedTable({
  caption,
  columns,
  rows,
  empty,
}: {
  caption: string;
  columns: string[];
  rows: { key: string; cells: ReactNode[] }[];
  empty?: string;
}) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table admin-table--stacked" role="table">
        <caption>{caption}</caption>
        <thead>
          <tr role="row">
            {columns.map((column) => (
              <th key={column} scope="col" role="columnheader">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty !== undefined && (
            <tr role="row">
              {/* A data cell, not a grid's: the rule takes every td for an interactive gridcell. */}
              {/* eslint-disable-next-line jsx-a11y/no-interactive-element-to-noninteractive-role */}
              <td role="cell" colSpan={columns.length}>
                {empty}
              </td>
            </tr>
          )}
          {rows.map(({ key, cells: [head, ...cells] }) => (
            <tr key={key} role="row">
              <th scope="row" role="rowheader">
                {head}
              </th>
              {cells.map((cell, index) => (
                // eslint-disable-next-line jsx-a11y/no-interactive-element-to-noninteractive-role
                <td key={columns[index + 1]} role="cell" data-label={columns[index + 1]}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
