import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { App, type AppProps } from './App';

/** The same tree on the server and in the browser, so hydration matches. */
export function Root({ client, ...props }: AppProps & { client: QueryClient }) {
  return (
    <QueryClientProvider client={client}>
      <App {...props} />
    </QueryClientProvider>
  );
}
