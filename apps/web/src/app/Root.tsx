import { App, type AppProps } from './App';

/** The same tree on the server and in the browser, so hydration matches. */
export function Root(props: AppProps) {
  return <App {...props} />;
}
