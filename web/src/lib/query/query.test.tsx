import { act, render, screen, waitFor } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CancelledError, QueryClient, QueryClientProvider, useInfiniteQuery, useQuery, useQueryClient } from '.';
import { hashKey, replaceEqualDeep } from './client';
import { deferred } from '../deferred';

/** A query function answering each call with the next of its deferreds, recording what it was given. */
function controlled<T>() {
  const calls: Array<{ queryKey: readonly unknown[]; signal: AbortSignal; answer: ReturnType<typeof deferred<T>> }> = [];
  const fn = vi.fn(({ queryKey, signal }: { queryKey: readonly unknown[]; signal: AbortSignal }) => {
    const answer = deferred<T>();
    calls.push({ queryKey, signal, answer });
    return answer.promise;
  });
  return { fn, calls };
}

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 } } });

function withClient(client: QueryClient, children: ReactNode) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** Shows a query's state as text: status/fetchStatus:data. */
function Show({ id, queryKey, queryFn, staleTime, enabled, onRender }: { id: string; queryKey: readonly unknown[]; queryFn: (ctx: { signal: AbortSignal; queryKey: readonly unknown[] }) => Promise<unknown>; staleTime?: number; enabled?: boolean; onRender?: (data: unknown, text: string) => void }) {
  const query = useQuery({ queryKey, queryFn, staleTime, enabled });
  const text = `${query.status}/${query.isFetching ? 'fetching' : 'idle'}:${query.isError ? query.error.message : JSON.stringify(query.data ?? null)}`;
  onRender?.(query.data, text);
  return <output aria-label={id}>{text}</output>;
}

const shown = (id: string) => screen.getByRole('status', { name: id }).textContent;

afterEach(() => {
  vi.useRealTimers();
});

describe('keys and data', () => {
  it('hashes keys with object properties in name order and filters by prefix or exactly', async () => {
    expect(hashKey(['a', { b: 1, a: [2, { d: 1, c: 2 }] }])).toBe(hashKey(['a', { a: [2, { c: 2, d: 1 }], b: 1 }]));
    expect(hashKey(['a', 1])).not.toBe(hashKey(['a', '1']));
    const client = newClient();
    client.setQueryData(['resource', '/a/'], 1);
    client.setQueryData(['resource', '/a/b'], 2);
    client.setQueryData(['resources'], 3);
    client.removeQueries({ queryKey: ['resource', '/a/'], exact: true });
    expect(client.getQueryData(['resource', '/a/'])).toBeUndefined();
    expect(client.getQueryData(['resource', '/a/b'])).toBe(2);
    client.removeQueries({ queryKey: ['resource'] });
    expect(client.getQueryData(['resource', '/a/b'])).toBeUndefined();
    expect(client.getQueryData(['resources'])).toBe(3);
  });

  it('keeps the previous objects wherever the new data deep-equals them', () => {
    const before = { items: [{ name: 'a', tags: ['x'] }, { name: 'b' }], meta: { n: 2 } };
    const same = replaceEqualDeep(before, JSON.parse(JSON.stringify(before)));
    expect(same).toBe(before);
    const changed = replaceEqualDeep(before, { items: [{ name: 'a', tags: ['x'] }, { name: 'c' }], meta: { n: 2 } });
    expect(changed).not.toBe(before);
    expect(changed.items[0]).toBe(before.items[0]);
    expect(changed.items[1]).toEqual({ name: 'c' });
    expect(changed.meta).toBe(before.meta);
    expect(replaceEqualDeep({ a: 1 }, { a: 1, b: undefined })).toEqual({ a: 1, b: undefined });
    expect(replaceEqualDeep([1, 2], [1, 2, 3])).toEqual([1, 2, 3]);
  });

  it('sets data from a value or an updater; an updater returning undefined changes nothing', () => {
    const client = newClient();
    const seen: unknown[] = [];
    client.setQueryData<number[]>(['n'], (current) => (seen.push(current), current));
    expect(seen).toEqual([undefined]);
    expect(client.getQueryState(['n'])).toBeUndefined();
    client.setQueryData(['n'], [1]);
    client.setQueryData<number[]>(['n'], (current) => [...current!, 2]);
    expect(client.getQueryData(['n'])).toEqual([1, 2]);
    const state = client.getQueryState(['n'])!;
    expect(state.status).toBe('success');
    expect(state.dataUpdatedAt).toBeGreaterThan(0);
    client.setQueryData(['m'], { x: 1 });
    client.setQueriesData<{ x: number } | number[]>({ queryKey: [] }, (current) => (Array.isArray(current) ? undefined : { x: 2 }));
    expect(client.getQueryData(['m'])).toEqual({ x: 2 });
    expect(client.getQueryData(['n'])).toEqual([1, 2]);
    client.clear();
    expect(client.getQueryData(['m'])).toBeUndefined();
  });
});

describe('useQuery', () => {
  it('shares one request between the components showing a key, and passes it the key and a signal', async () => {
    const client = newClient();
    const { fn, calls } = controlled<string>();
    render(withClient(client, (
      <>
        <Show id="one" queryKey={['k', { b: 1, a: 2 }]} queryFn={fn} />
        <Show id="two" queryKey={['k', { a: 2, b: 1 }]} queryFn={fn} />
      </>
    )));
    expect(shown('one')).toBe('pending/fetching:null');
    await waitFor(() => expect(fn).toHaveBeenCalledTimes(1));
    expect(calls[0]!.queryKey).toEqual(['k', { b: 1, a: 2 }]);
    expect(calls[0]!.signal).toBeInstanceOf(AbortSignal);
    await act(async () => calls[0]!.answer.resolve('hi'));
    expect(shown('one')).toBe('success/idle:"hi"');
    expect(shown('two')).toBe('success/idle:"hi"');
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('refetches on mount only when the data is stale', async () => {
    const client = newClient();
    const fn = vi.fn(async () => 'v');
    const view = render(withClient(client, <Show id="a" queryKey={['s']} queryFn={fn} staleTime={60_000} />));
    await waitFor(() => expect(shown('a')).toBe('success/idle:"v"'));
    view.unmount();
    const again = render(withClient(client, <Show id="a" queryKey={['s']} queryFn={fn} staleTime={60_000} />));
    expect(shown('a')).toBe('success/idle:"v"');
    again.unmount();
    expect(fn).toHaveBeenCalledTimes(1);
    const renders: string[] = [];
    render(withClient(client, <Show id="a" queryKey={['s']} queryFn={fn} onRender={(_data, text) => renders.push(text)} />));
    // Stale at once: the cached data shows while it is asked for again, said to be fetching from the first render on.
    expect(shown('a')).toBe('success/fetching:"v"');
    await waitFor(() => expect(shown('a')).toBe('success/idle:"v"'));
    expect(fn).toHaveBeenCalledTimes(2);
    expect(renders[0]).toBe('success/fetching:"v"');
  });

  it('keeps the previous data object when a refetch answers the same', async () => {
    const client = newClient();
    let answer = { list: [{ id: 1 }], total: 1 };
    const seen: unknown[] = [];
    render(withClient(client, <Show id="a" queryKey={['same']} queryFn={async () => structuredClone(answer)} onRender={(data) => seen.push(data)} />));
    await waitFor(() => expect(shown('a')).toBe('success/idle:{"list":[{"id":1}],"total":1}'));
    const first = client.getQueryData(['same']);
    await act(() => client.invalidateQueries({ queryKey: ['same'] }));
    expect(client.getQueryData(['same'])).toBe(first);
    answer = { list: [{ id: 1 }], total: 2 };
    await act(() => client.invalidateQueries({ queryKey: ['same'] }));
    const second = client.getQueryData<typeof answer>(['same'])!;
    expect(second).not.toBe(first);
    expect(second.list).toBe((first as typeof answer).list);
    expect(new Set(seen.filter(Boolean)).size).toBe(2);
  });

  it('does not fetch while disabled, and fetches once enabled', async () => {
    const client = newClient();
    const fn = vi.fn(async () => 1);
    function Toggle() {
      const [enabled, setEnabled] = useState(false);
      return (
        <>
          <Show id="a" queryKey={['d']} queryFn={fn} enabled={enabled} />
          <button onClick={() => setEnabled(true)}>on</button>
        </>
      );
    }
    render(withClient(client, <Toggle />));
    await act(() => client.invalidateQueries());
    expect(fn).not.toHaveBeenCalled();
    expect(shown('a')).toBe('pending/idle:null');
    act(() => screen.getByRole('button').click());
    await waitFor(() => expect(shown('a')).toBe('success/idle:1'));
  });

  it('abandons the request when its last component leaves, and goes back to the state before it', async () => {
    const client = newClient();
    client.setQueryData(['x'], 'old');
    const { fn, calls } = controlled<string>();
    const view = render(withClient(client, <Show id="a" queryKey={['x']} queryFn={fn} />));
    await waitFor(() => expect(shown('a')).toBe('success/fetching:"old"'));
    view.unmount();
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(client.getQueryState(['x'])).toMatchObject({ data: 'old', status: 'success', fetchStatus: 'idle' });
    calls[0]!.answer.resolve('late');
    await Promise.resolve();
    expect(client.getQueryData(['x'])).toBe('old');

    const never = controlled<string>();
    const other = render(withClient(client, <Show id="b" queryKey={['y']} queryFn={never.fn} />));
    await waitFor(() => expect(never.fn).toHaveBeenCalled());
    other.unmount();
    expect(client.getQueryState(['y'])).toMatchObject({ status: 'pending', fetchStatus: 'idle', data: undefined });
  });

  it('shows data set while its request runs as a success that is still fetching, then the answer', async () => {
    const client = newClient();
    const full = deferred<string[]>();
    const queryFn = async () => {
      client.setQueryData(['big'], ['first']);
      return full.promise;
    };
    render(withClient(client, <Show id="a" queryKey={['big']} queryFn={queryFn} />));
    await waitFor(() => expect(shown('a')).toBe('success/fetching:["first"]'));
    expect(client.getQueryState(['big'])).toMatchObject({ status: 'success', fetchStatus: 'fetching' });
    await act(async () => full.resolve(['first', 'second']));
    expect(shown('a')).toBe('success/idle:["first","second"]');
  });

  it('keeps data set during a request when that request is abandoned', async () => {
    const client = newClient();
    const queryFn = () => {
      client.setQueryData(['part'], 'part');
      return new Promise<string>(() => undefined);
    };
    const view = render(withClient(client, <Show id="a" queryKey={['part']} queryFn={queryFn} />));
    await waitFor(() => expect(shown('a')).toBe('success/fetching:"part"'));
    view.unmount();
    expect(client.getQueryState(['part'])).toMatchObject({ data: 'part', status: 'success', fetchStatus: 'idle' });
  });

  it('shows a failure, and clears it when the next request starts without data', async () => {
    const client = newClient();
    const { fn, calls } = controlled<string>();
    const view = render(withClient(client, <Show id="a" queryKey={['e']} queryFn={fn} />));
    await waitFor(() => expect(calls).toHaveLength(1));
    await act(async () => calls[0]!.answer.reject(new Error('boom')));
    expect(shown('a')).toBe('error/idle:boom');
    view.unmount();
    render(withClient(client, <Show id="a" queryKey={['e']} queryFn={fn} />));
    await waitFor(() => expect(shown('a')).toBe('pending/fetching:null'));
    await act(async () => calls[1]!.answer.resolve('ok'));
    expect(shown('a')).toBe('success/idle:"ok"');
  });

  it('renders again only the components whose key changed', async () => {
    const client = newClient();
    client.setQueryData(['a'], 1);
    client.setQueryData(['b'], 1);
    const renders = { a: 0, b: 0 };
    const fn = () => new Promise<number>(() => undefined);
    render(withClient(client, (
      <>
        <Show id="a" queryKey={['a']} queryFn={fn} staleTime={60_000} onRender={() => renders.a++} />
        <Show id="b" queryKey={['b']} queryFn={fn} staleTime={60_000} onRender={() => renders.b++} />
      </>
    )));
    const before = { ...renders };
    act(() => void client.setQueryData(['a'], 2));
    expect(shown('a')).toBe('success/idle:2');
    expect(renders.a).toBeGreaterThan(before.a);
    expect(renders.b).toBe(before.b);
  });

  it('refetch replaces a running request for data on screen; its callers get the new answer', async () => {
    const client = newClient();
    client.setQueryData(['r'], 0);
    const { fn, calls } = controlled<number>();
    let refetch!: () => Promise<unknown>;
    function Refetching() {
      const query = useQuery({ queryKey: ['r'], queryFn: fn });
      refetch = query.refetch;
      return <output aria-label="r">{String(query.data)}</output>;
    }
    render(withClient(client, <Refetching />));
    await waitFor(() => expect(calls).toHaveLength(1));
    const first = client.fetchQuery({ queryKey: ['r'], queryFn: fn });
    expect(calls).toHaveLength(1);
    act(() => void refetch());
    expect(calls).toHaveLength(2);
    expect(calls[0]!.signal.aborted).toBe(true);
    await act(async () => calls[1]!.answer.resolve(2));
    await expect(first).resolves.toBe(2);
    expect(shown('r')).toBe('2');
  });
});

describe('the client', () => {
  it('asks again for the stale queries on screen when the browser is back online', async () => {
    const client = newClient();
    client.setQueryData(['fresh'], 1);
    const stale = vi.fn(async (): Promise<string> => Promise.reject(new Error('offline')));
    const fresh = vi.fn(async () => 2);
    render(withClient(client, (
      <>
        <Show id="stale" queryKey={['stale']} queryFn={stale} />
        <Show id="fresh" queryKey={['fresh']} queryFn={fresh} staleTime={60_000} />
      </>
    )));
    await waitFor(() => expect(shown('stale')).toBe('error/idle:offline'));
    stale.mockResolvedValue('back');
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(shown('stale')).toBe('success/idle:"back"'));
    expect(fresh).not.toHaveBeenCalled();
  });


  it('invalidates by prefix: marks stale, refetches what is on screen and enabled, resolves when that has answered', async () => {
    const client = newClient();
    const onScreen = controlled<string>();
    const disabled = vi.fn(async () => 'x');
    client.setQueryData(['u', 'on'], 'a');
    client.setQueryData(['u', 'off'], 'b');
    client.setQueryData(['u', 'hidden'], 'c');
    client.setQueryData(['v'], 'd');
    render(withClient(client, (
      <>
        <Show id="on" queryKey={['u', 'on']} queryFn={onScreen.fn} staleTime={60_000} />
        <Show id="off" queryKey={['u', 'off']} queryFn={disabled} enabled={false} />
      </>
    )));
    let settled = false;
    let done!: Promise<void>;
    act(() => {
      done = client.invalidateQueries({ queryKey: ['u'] }).then(() => void (settled = true));
    });
    expect(onScreen.calls).toHaveLength(1);
    expect(disabled).not.toHaveBeenCalled();
    expect(client.getQueryState(['u', 'hidden'])!.isInvalidated).toBe(true);
    expect(client.getQueryState(['v'])!.isInvalidated).toBe(false);
    await Promise.resolve();
    expect(settled).toBe(false);
    await act(async () => onScreen.calls[0]!.answer.resolve('new'));
    await done;
    expect(shown('on')).toBe('success/idle:"new"');
    expect(client.getQueryState(['u', 'on'])!.isInvalidated).toBe(false);
  });

  it('fetchQuery answers from the cache while fresh, else asks, joining a running request', async () => {
    const client = newClient();
    const { fn, calls } = controlled<number>();
    client.setQueryData(['f'], 1);
    await expect(client.fetchQuery({ queryKey: ['f'], queryFn: fn, staleTime: 60_000 })).resolves.toBe(1);
    expect(fn).not.toHaveBeenCalled();
    const one = client.fetchQuery({ queryKey: ['f'], queryFn: fn });
    const two = client.fetchQuery({ queryKey: ['f'], queryFn: fn, staleTime: 0 });
    expect(calls).toHaveLength(1);
    expect(client.getQueryState(['f'])!.fetchStatus).toBe('fetching');
    calls[0]!.answer.resolve(2);
    await expect(one).resolves.toBe(2);
    await expect(two).resolves.toBe(2);
    await expect(client.ensureQueryData({ queryKey: ['f'], queryFn: fn })).resolves.toBe(2);
    expect(calls).toHaveLength(1);
    await expect(client.ensureQueryData({ queryKey: ['g'], queryFn: async () => 'g' })).resolves.toBe('g');
    await expect(client.prefetchQuery({ queryKey: ['h'], queryFn: async () => Promise.reject(new Error('no')) })).resolves.toBeUndefined();
    expect(client.getQueryState(['h'])).toMatchObject({ status: 'error', error: new Error('no') });
  });

  it('retries as configured, waiting longer each time', async () => {
    vi.useFakeTimers();
    const client = new QueryClient({ defaultOptions: { queries: { retry: (count, error) => count < 2 && error.message === 'again' } } });
    const fn = vi.fn(async () => {
      throw new Error('again');
    });
    const result = client.fetchQuery({ queryKey: ['t'], queryFn: fn }).catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(0);
    expect(fn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(fn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fn).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(fn).toHaveBeenCalledTimes(3);
    await expect(result).resolves.toBe('again');
    expect(client.getQueryState(['t'])!.status).toBe('error');

    const once = vi.fn(async () => {
      throw new Error('final');
    });
    await expect(client.fetchQuery({ queryKey: ['t2'], queryFn: once, retry: false })).rejects.toThrow('final');
    expect(once).toHaveBeenCalledTimes(1);
  });

  it('removing a query abandons its request; unobserved queries are forgotten after gcTime', async () => {
    vi.useFakeTimers();
    const client = newClient();
    const { fn, calls } = controlled<number>();
    const running = client.fetchQuery({ queryKey: ['gone'], queryFn: fn });
    client.removeQueries({ queryKey: ['gone'] });
    expect(calls[0]!.signal.aborted).toBe(true);
    await expect(running).rejects.toBeInstanceOf(CancelledError);

    await client.fetchQuery({ queryKey: ['kept'], queryFn: async () => 1, gcTime: 1000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(client.getQueryData(['kept'])).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.getQueryData(['kept'])).toBeUndefined();

    client.setQueryData(['seen'], 1);
    const view = render(withClient(client, <Show id="s" queryKey={['seen']} queryFn={async () => 1} staleTime={60_000} />));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(client.getQueryData(['seen'])).toBe(1);
    view.unmount();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(client.getQueryData(['seen'])).toBeUndefined();
  });
});

describe('useInfiniteQuery', () => {
  it('loads the first page, appends the next on demand, and refetches every loaded page', async () => {
    const client = newClient();
    const pages: Record<string, { items: string[]; next: string | null }> = {
      start: { items: ['a', 'b'], next: 'p2' },
      p2: { items: ['c'], next: null },
    };
    const asked: Array<string | null> = [];
    let api!: ReturnType<typeof useInfiniteQuery<{ items: string[]; next: string | null }, string | null>>;
    function Audit() {
      api = useInfiniteQuery({
        queryKey: ['audit'],
        queryFn: async ({ pageParam }) => {
          asked.push(pageParam);
          return structuredClone(pages[pageParam ?? 'start']!);
        },
        initialPageParam: null as string | null,
        getNextPageParam: (last) => last.next,
      });
      return <output aria-label="audit">{(api.data?.pages.flatMap((page) => page.items) ?? []).join(',')}</output>;
    }
    render(withClient(client, <Audit />));
    await waitFor(() => expect(shown('audit')).toBe('a,b'));
    expect(api.hasNextPage).toBe(true);
    let next!: Promise<unknown>;
    act(() => void (next = api.fetchNextPage()));
    expect(api.isFetchingNextPage).toBe(true);
    await act(() => next);
    expect(shown('audit')).toBe('a,b,c');
    expect(api.hasNextPage).toBe(false);
    expect(api.isFetchingNextPage).toBe(false);
    expect(asked).toEqual([null, 'p2']);
    pages.start = { items: ['z'], next: 'p2' };
    await act(() => client.invalidateQueries({ queryKey: ['audit'] }));
    expect(asked).toEqual([null, 'p2', null, 'p2']);
    expect(shown('audit')).toBe('z,c');
    expect(api.data!.pageParams).toEqual([null, 'p2']);
  });
});

describe('the provider', () => {
  it('hands the client to the hooks', () => {
    const client = newClient();
    let seen: QueryClient | undefined;
    function Reader() {
      seen = useQueryClient();
      return null;
    }
    render(withClient(client, <Reader />));
    expect(seen).toBe(client);
    expect(() => render(<Reader />)).toThrow(/QueryClientProvider/);
  });
});
