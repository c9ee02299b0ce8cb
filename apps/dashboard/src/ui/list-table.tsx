import type { ReactNode } from 'react';

export interface Column {
  label: string;
  /** Named for screen readers only. */
  hidden?: boolean;
}

/** A list as a table: one header row of column names (a column may be named for screen readers only). */
export function ListTable({ columns, children }: { columns: Column[]; children: ReactNode }) {
  return (
    <table className="list">
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column.label}>
              {column.hidden ? <span className="visually-hidden">{column.label}</span> : column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
