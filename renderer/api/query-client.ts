import { QueryClient } from '@tanstack/react-query';

/**
 * The one cache of the server state the screens show (account, batches, webhooks, team
 * service): each is fetched in one place, shared by every screen that shows it, and kept fresh
 * by the query that owns it instead of a timer per component.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The core runs on this machine: a refused request is its answer, and a core that is down
      // is the connection banner's business (App's knock), not three silent retries per screen.
      retry: false,
      // Switching windows changes nothing on the server; the screens' own intervals say when.
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
    },
  },
});
