import { z } from 'zod';

/** Every 4xx/5xx answer of the API has this shape: a stable code, a sentence, and the fields at fault. */
export const ApiError = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** On a ROLE_REQUIRED 403: the least role that may do this (viewer, editor or owner). */
  requiredRole: z.string().optional(),
});
export type ApiError = z.infer<typeof ApiError>;

export const ErrorCode = {
  validation: 'VALIDATION_ERROR',
  invalidJson: 'INVALID_JSON',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  bodyTooLarge: 'BODY_TOO_LARGE',
  headersTooLarge: 'HEADERS_TOO_LARGE',
  requestTimeout: 'REQUEST_TIMEOUT',
  malformedRequest: 'MALFORMED_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  roleRequired: 'ROLE_REQUIRED',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  rateLimited: 'RATE_LIMITED',
  unavailable: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
