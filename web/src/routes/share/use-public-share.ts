import type { Resource } from '@burrow/protocol';
import { useQuery } from '../../lib/query';
import { useRef, useState } from 'react';
import { create } from 'zustand';
import { isApiError } from '../../api/api-error';
import { fetchPublicShare, type ShareCredentials } from '../../api/public-shares';

/**
 * Tokens of protected links this visitor unlocked, by hash. Kept in memory only: a reload asks
 * for the password again, and nothing about the link outlives the tab.
 */
const useShareTokens = create<{ tokens: Record<string, string> }>(() => ({ tokens: {} }));

function useShareToken(hash: string): string | undefined {
  return useShareTokens((state) => state.tokens[hash]);
}

function rememberToken(hash: string, token: string | undefined) {
  const { tokens } = useShareTokens.getState();
  if (tokens[hash] === token) return;
  const next = { ...tokens };
  if (token) next[hash] = token;
  else delete next[hash];
  useShareTokens.setState({ tokens: next });
}

export function publicShareQueryKey(hash: string, path: string) {
  return ['public-share', hash, path] as const;
}

export type PasswordState = {
  /** The link wants a password: the prompt shows, also while a password is being checked. */
  isRequired: boolean;
  /** The last password tried was refused. */
  isWrong: boolean;
  /** Too many wrong passwords from here: the server refuses for a while (429). */
  isThrottled: boolean;
  isChecking: boolean;
  submit: (password: string) => void;
};

type Prompt = 'none' | 'ask' | 'wrong' | 'throttled';

/**
 * The listing or file at `path` inside the link `hash`. A token from an earlier answer is sent
 * when known; otherwise the password last submitted. A refused token is forgotten, so the
 * password prompt comes back instead of an error.
 */
export function usePublicShare(hash: string, path: string) {
  const token = useShareToken(hash);
  const password = useRef<string | undefined>(undefined);
  // Kept apart from the query's error: a refetch clears that while the password is checked,
  // and the prompt must stay on screen meanwhile.
  const [prompt, setPrompt] = useState<Prompt>('none');

  const query = useQuery<Resource>({
    queryKey: publicShareQueryKey(hash, path),
    queryFn: async ({ signal }) => {
      const current = useShareTokens.getState().tokens[hash];
      const tried = password.current;
      const credentials: ShareCredentials = current ? { token: current } : { password: tried };
      try {
        const resource = await fetchPublicShare(hash, path, credentials, signal);
        rememberToken(hash, resource.token);
        setPrompt('none');
        return resource;
      } catch (error) {
        const code = isApiError(error) ? error.code : undefined;
        if (code === 'unauthorized') {
          if (current) rememberToken(hash, undefined);
          setPrompt(!current && tried !== undefined ? 'wrong' : 'ask');
        } else if (code === 'too_many_requests' && tried !== undefined) {
          setPrompt('throttled');
        }
        throw error;
      }
    },
  });

  const passwordState: PasswordState = {
    isRequired: prompt !== 'none' && !query.isSuccess,
    isWrong: prompt === 'wrong' && !query.isFetching,
    isThrottled: prompt === 'throttled' && !query.isFetching,
    isChecking: query.isFetching,
    submit: (value) => {
      password.current = value;
      void query.refetch();
    },
  };
  return { query, token, password: passwordState };
}
