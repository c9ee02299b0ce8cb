import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { SubscriberCells } from './subscriber-cells';
import { ListTable } from '../../ui/list-table';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useSubscriberSearch } from './subscribers-api';

const COLUMNS = ['Subscriber id', 'Name', 'Email', 'Phone'].map((label) => ({ label }));

/** The picked environment's subscribers, searched by id; the search is part of the URL. */
export function SubscribersPage() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const after = params.get('after') ?? undefined;
  const [typed, setTyped] = useState(search);
  const list = useSubscriberSearch(search, after);
  return (
    <section aria-labelledby="subscribers-title">
      <h1 id="subscribers-title">Subscribers</h1>
      <form
        className="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setParams(typed ? { search: typed } : {});
        }}
      >
        <label>
          Subscriber id contains
          <input value={typed} onChange={(event) => setTyped(event.target.value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      {list.isPending ? <Loading label="Loading subscribers" /> : null}
      {list.isError ? <ErrorState error={list.error} /> : null}
      {list.data?.data.length === 0 ? <Empty>No subscribers match.</Empty> : null}
      {list.data && list.data.data.length > 0 ? (
        <ListTable columns={COLUMNS}>
          {list.data.data.map((subscriber) => (
            <tr key={subscriber._id}>
              <SubscriberCells subscriber={subscriber} />
              <td>{subscriber.phone ?? '—'}</td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      {list.data?.next ? (
        <p className="pager">
          <Link to={`?${new URLSearchParams({ ...(search ? { search } : {}), after: list.data.next }).toString()}`}>
            More subscribers
          </Link>
        </p>
      ) : null}
    </section>
  );
}
