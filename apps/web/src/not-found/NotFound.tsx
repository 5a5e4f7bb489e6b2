/** The default not-found view (spec §2.5): centred on black. */
export function NotFound() {
  return (
    <main className="not-found">
      <h1>Page not found! 404</h1>
      <p>The page you are looking for is not available.</p>
    </main>
  );
}
