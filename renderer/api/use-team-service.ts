import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api } from './client';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';
import type { TeamServiceStatus } from './types';

/** While this computer lends its threads, the worker's state is followed this often. */
const LENDING_REFRESH_MS = 2000;

/** Settings → Team service: the saved settings, and the lent worker's state while lending. */
export function useTeamService(): UseQueryResult<TeamServiceStatus> {
  return useQuery({
    queryKey: queryKeys.teamService,
    queryFn: () => api.teamService.get(),
    refetchInterval: (query) => (query.state.data?.lend.enabled ? LENDING_REFRESH_MS : false),
  });
}

/** What a save answered: no request needed to show it. */
export function rememberTeamService(status: TeamServiceStatus): void {
  queryClient.setQueryData(queryKeys.teamService, status);
}
