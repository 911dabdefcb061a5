/**
 * Maps `items` through an async function with at most `limit` calls in flight, keeping order.
 * Listings use it so a folder of 100,000 entries neither runs its stats one by one nor queues
 * 100,000 filesystem requests at once.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  const workers: Promise<void>[] = [];
  for (let count = 0; count < Math.min(limit, items.length); count++) workers.push(worker());
  await Promise.all(workers);
  return results;
}
