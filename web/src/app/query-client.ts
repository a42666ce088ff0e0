import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The HTTP client already reported the failure; retrying would repeat the notice.
      retry: false,
      refetchOnWindowFocus: false,
    },
  },
});
