/**
 * Runs `send` for every item, at most `parallel` at once, starting none after `deadlineMs`: the
 * result of each item in order, undefined for one never started.
 */
export async function sendWithin<Item, Result>(
  items: readonly Item[],
  parallel: number,
  deadlineMs: number,
  send: (item: Item) => Promise<Result>,
): Promise<(Result | undefined)[]> {
  const results: (Result | undefined)[] = new Array<Result | undefined>(items.length).fill(undefined);
  const startBy = performance.now() + deadlineMs;
  let next = 0;
  const lane = async () => {
    while (next < items.length && performance.now() < startBy) {
      const index = next++;
      results[index] = await send(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, lane));
  return results;
}
