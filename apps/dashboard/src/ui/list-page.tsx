import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useRoleAtLeast } from '../session/session';
import { ListTable, type Column } from './list-table';
import { Empty, ErrorState, Loading } from './states';

/**
 * A page that lists one kind of thing: its title, what comes before the list (a hint, a search), the loading,
 * empty and error states, the table a row per item, what follows it (a count, a pager), and for editors and
 * admins the form that creates one.
 */
export function ListPage<Data, Item>({
  id,
  title,
  intro,
  query,
  items,
  loadingLabel,
  emptyText,
  columns,
  row,
  footer,
  createForm,
}: {
  /** The heading's id is `${id}-title`; the section is named by it. */
  id: string;
  title: string;
  intro?: ReactNode;
  query: UseQueryResult<Data>;
  items: (data: Data) => Item[];
  loadingLabel: string;
  emptyText: string;
  columns: Column[];
  /** The item's `<tr>`, with its key. */
  row: (item: Item) => ReactNode;
  footer?: (data: Data) => ReactNode;
  createForm?: ReactNode;
}) {
  const canEdit = useRoleAtLeast('editor');
  const shown = query.data === undefined ? [] : items(query.data);
  return (
    <section aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>{title}</h1>
      {intro}
      {query.isPending ? <Loading label={loadingLabel} /> : null}
      {query.isError ? <ErrorState error={query.error} /> : null}
      {query.data !== undefined && shown.length === 0 ? <Empty>{emptyText}</Empty> : null}
      {shown.length > 0 ? <ListTable columns={columns}>{shown.map(row)}</ListTable> : null}
      {query.data !== undefined ? footer?.(query.data) : null}
      {canEdit ? createForm : null}
    </section>
  );
}
