/** The page object of cursor lists (subscribers, topics, topic subscriptions). */
export interface CursorPage<T> {
  data: T[];
  next: string | null;
  previous: string | null;
  /** Rows matching the filter on every page, counted up to a cap; `totalCountCapped` says the cap was hit. */
  totalCount: number;
  totalCountCapped: boolean;
}

/** `next`/`previous` are the edge ids of the page when more rows lie in that direction. */
export function toCursorPage<T extends { id: string }>(
  rows: T[],
  hasMore: boolean,
  cursor: { after?: string; before?: string },
  count: { totalCount: number; totalCountCapped: boolean },
): CursorPage<T> {
  const first = rows[0]?.id ?? null;
  const last = rows.at(-1)?.id ?? null;
  const { totalCount, totalCountCapped } = count;
  if (cursor.before) return { data: rows, next: last, previous: hasMore ? first : null, totalCount, totalCountCapped };
  return {
    data: rows,
    next: hasMore ? last : null,
    previous: cursor.after ? first : null,
    totalCount,
    totalCountCapped,
  };
}
