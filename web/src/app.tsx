import { QueryClientProvider } from './lib/query';
import { RouterProvider } from './lib/router';
import { queryClient } from './lib/query-client';

type AppRouter = Parameters<typeof RouterProvider>[0]['router'];

export function App({ router }: { router: AppRouter }) {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
