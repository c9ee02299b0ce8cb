import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { SubscriberCells } from './subscriber-cells';
import { ListPage } from '../../ui/list-page';
import { useSubscriberSearch } from './subscribers-api';

const COLUMNS = ['Subscriber id', 'Name', 'Email', 'Phone'].map((label) => ({ label }));

/** The picked environment's subscribers, searched by id; the search is part of the URL. */
export function SubscribersPage() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const after = params.get('after') ?? undefined;
  const [typed, setTyped] = useState(search);
  const searchForm = (
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
  );
  return (
    <ListPage
      id="subscribers"
      title="Subscribers"
      intro={searchForm}
      query={useSubscriberSearch(search, after)}
      items={(page) => page.data}
      loadingLabel="Loading subscribers"
      emptyText="No subscribers match."
      columns={COLUMNS}
      row={(subscriber) => (
        <tr key={subscriber._id}>
          <SubscriberCells subscriber={subscriber} />
          <td>{subscriber.phone ?? '—'}</td>
        </tr>
      )}
      footer={(page) =>
        page.next ? (
          <p className="pager">
            <Link to={`?${new URLSearchParams({ ...(search ? { search } : {}), after: page.next }).toString()}`}>
              More subscribers
            </Link>
          </p>
        ) : null
      }
    />
  );
}
