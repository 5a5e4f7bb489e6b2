import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { REQUEST_TIMEOUT, rawErrorResponse } from './errors';

const RAW_ANSWER = rawErrorResponse(REQUEST_TIMEOUT);

/**
 * Cuts a request whose body is still arriving `timeoutMs` after its headers: Node's own requestTimeout
 * stops at the headers, so a client could otherwise hold a socket open by sending a body a byte at a
 * time. It is answered 408 in the API's error shape and its connection is closed. One sweep every
 * quarter of the limit looks at the requests still reading, rather than a timer per request.
 */
export function limitBodyTime(app: FastifyInstance, timeoutMs: number): void {
  const reading = new Map<IncomingMessage, number>();
  const sweep = setInterval(
    () => {
      const overdue = Date.now() - timeoutMs;
      for (const [raw, since] of reading) {
        // Complete: every byte arrived, whether or not the route has read it (a slow handler is not a
        // slow client).
        if (raw.complete) {
          reading.delete(raw);
          continue;
        }
        if (since > overdue) continue;
        reading.delete(raw);
        const socket = raw.socket;
        if (socket.writable) socket.end(RAW_ANSWER);
        socket.destroySoon();
      }
    },
    Math.max(100, Math.ceil(timeoutMs / 4)),
  );
  sweep.unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(sweep);
    done();
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw;
    if (!raw.complete) {
      reading.set(raw, Date.now());
      raw.once('close', () => reading.delete(raw));
    }
    done();
  });
}
