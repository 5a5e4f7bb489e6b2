import { TIMING } from '@embudo/contracts/runtime';

export type Method = 'GET' | 'POST' | 'PUT';

/**
 * The generic client of spec §7 and §9: JSON headers; GET, POST and PUT; the answer parsed as JSON
 * when its content type says so, otherwise as text; 10 s timeout giving 'Request timeout'; a non-OK
 * answer throws 'HTTP {status}: {body}'.
 */
export async function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  options: { timeoutMs?: number; keepalive?: boolean; baseUrl?: string } = {},
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
  }, options.timeoutMs ?? TIMING.requestTimeout);
  try {
    const response = await fetch(`${options.baseUrl ?? ''}${path}`, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: controller.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const text = await response.text();
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${text}`);
    return (isJson && text !== '' ? JSON.parse(text) : text) as T;
  } catch (error) {
    if (controller.signal.aborted) throw new Error('Request timeout');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
