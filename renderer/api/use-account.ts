import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api } from './client';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';
import type { Account } from './types';

/** The account (balance, plan): fetched when a screen that shows it opens. */
export function useAccount(): UseQueryResult<Account> {
  return useQuery({ queryKey: queryKeys.account, queryFn: () => api.account.get() });
}

/** Fetches the account again (after a batch ends, a top-up, a render that charged). */
export function refreshAccount(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.account });
}

/** The balance a render response reported (x-credits-remaining): no request needed. */
export function setBalance(balance: number): void {
  queryClient.setQueryData<Account>(queryKeys.account, (account) =>
    account && account.balance !== balance ? { ...account, balance } : account,
  );
}
