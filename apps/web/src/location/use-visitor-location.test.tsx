import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useVisitorLocation } from './use-visitor-location';

function Probe({ enabled }: { enabled: boolean }) {
  const { location, done } = useVisitorLocation(enabled);
  return <p>{JSON.stringify({ location, done })}</p>;
}

function renderOnServer(enabled: boolean): string {
  return renderToString(<Probe enabled={enabled} />);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useVisitorLocation on the server', () => {
  it('renders no location, not done, and asks nothing', () => {
    const fetchSpy = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchSpy);
    expect(typeof window).toBe('undefined');

    expect(renderOnServer(true)).toContain('{&quot;location&quot;:null,&quot;done&quot;:false}');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('counts as done when the lookup is not wanted', () => {
    expect(renderOnServer(false)).toContain('{&quot;location&quot;:null,&quot;done&quot;:true}');
  });
});
