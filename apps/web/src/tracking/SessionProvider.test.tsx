import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SessionProvider, useSession } from './SessionProvider';

function ShowsTracking() {
  const session = useSession();
  return <p>{session.tracking ? 'on' : 'off'}</p>;
}

describe('useSession', () => {
  it("throws the spec's error outside its provider (visitor-behaviour §8)", () => {
    expect(() => renderToString(<ShowsTracking />)).toThrow(
      'useSession must be used within a SessionProvider',
    );
  });

  it('reads the session inside its provider; tracking is off without a lead token', () => {
    expect(
      renderToString(
        <SessionProvider token={null} tracking location={null}>
          <ShowsTracking />
        </SessionProvider>,
      ),
    ).toBe('<p>off</p>');
    expect(
      renderToString(
        <SessionProvider token="t0ken" tracking location={null}>
          <ShowsTracking />
        </SessionProvider>,
      ),
    ).toBe('<p>on</p>');
  });
});
