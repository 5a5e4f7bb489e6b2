import { ErrorCode, type ApiError } from '@embudo/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/unavailable';
import { HttpError } from '../lib/http-errors';
import './visitor-api';

/** Fastify's own 4xx errors, renamed to our stable codes. */
const FASTIFY_CODES: Record<string, { status: number; code: string; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: ErrorCode.invalidJson,
    message: 'the body is not valid JSON',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: ErrorCode.invalidJson,
    message: 'the body is empty; send a JSON object',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: ErrorCode.bodyTooLarge,
    message: 'the body is larger than this route accepts',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: ErrorCode.unsupportedMediaType,
    message: 'send the body as application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: ErrorCode.validation,
    message: 'Content-Length does not match the body',
  },
};

/**
 * One error shape for every answer (contracts' ApiError). A 5xx is logged with its stack and answered
 * with a plain sentence: no stack, no internals, ever.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let body: ApiError;
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: [error.validationContext, ...v.instancePath.split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'invalid',
      }));
      body = {
        statusCode: 400,
        code: ErrorCode.validation,
        message: `invalid ${error.validationContext ?? 'request'}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        issues,
      };
    } else if (error instanceof HttpError) {
      body = {
        statusCode: error.statusCode,
        code: error.code,
        message: error.message,
        ...(error.issues ? { issues: error.issues } : {}),
        ...error.extra,
      };
    } else if (error.code in FASTIFY_CODES) {
      const known = FASTIFY_CODES[error.code] as (typeof FASTIFY_CODES)[string];
      body = { statusCode: known.status, code: known.code, message: known.message ?? error.message };
    } else if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      body = {
        statusCode: error.statusCode,
        code: error.code || ErrorCode.validation,
        message: error.message,
      };
    } else if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      body = {
        statusCode: 503,
        code: ErrorCode.unavailable,
        message: 'the database is not answering; try again shortly',
      };
      void reply.header('retry-after', '5');
    } else {
      request.log.error({ err: error }, 'unhandled error');
      body = { statusCode: 500, code: ErrorCode.internal, message: 'internal error' };
    }
    // Visitor calls also carry the spec's envelope, so the page reads one shape (visitor-behaviour §3, §5).
    const envelope = request.routeOptions.config.visitorEnvelope
      ? { codeResponse: body.statusCode, result: false }
      : {};
    return reply
      .status(body.statusCode)
      .type('application/json; charset=utf-8')
      .send({ ...body, ...envelope });
  });

  app.setNotFoundHandler((request) => {
    throw routeNotFound(request.method, request.url);
  });
}

export function routeNotFound(method: string, url: string): HttpError {
  return new HttpError(404, ErrorCode.notFound, `no route for ${method} ${url.split('?')[0] ?? ''}`);
}

/** A request whose headers or body did not all arrive in time (REQUEST_TIMEOUT_MS). */
export const REQUEST_TIMEOUT: ApiError = {
  statusCode: 408,
  code: ErrorCode.requestTimeout,
  message: 'the request did not arrive in time',
};

/** An error written straight on the socket, as a whole HTTP response that closes the connection. */
export function rawErrorResponse(answer: ApiError): string {
  const body = JSON.stringify(answer);
  return (
    `HTTP/1.1 ${String(answer.statusCode)} ${STATUS_CODES[answer.statusCode] ?? ''}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${String(Buffer.byteLength(body))}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** What a connection that never became a request is told, by Node's parser error code. */
function clientErrorAnswer(code: string | undefined): ApiError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return REQUEST_TIMEOUT;
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      statusCode: 431,
      code: ErrorCode.headersTooLarge,
      message: 'the request headers are larger than 16 KiB',
    };
  return { statusCode: 400, code: ErrorCode.malformedRequest, message: 'the request is not valid HTTP' };
}

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (headers too large, a client too slow
 * to send its request, bytes that are not HTTP), answered in the same JSON shape as every other error,
 * then the connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.write(rawErrorResponse(clientErrorAnswer(error.code)));
  socket.destroy();
}
