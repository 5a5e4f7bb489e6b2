import { ErrorCode } from '@embudo/contracts';

export interface Issue {
  path: string;
  message: string;
}

/** An error with a status, a stable code and a sentence the caller can act on. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly issues?: Issue[],
    /** Fields the answer carries beside code and message (`requiredRole` on ROLE_REQUIRED). */
    readonly extra?: { requiredRole?: string },
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (what: string): HttpError =>
  new HttpError(404, ErrorCode.notFound, `${what} not found`);
export const conflict = (message: string): HttpError => new HttpError(409, ErrorCode.conflict, message);
export const unauthorized = (message: string): HttpError =>
  new HttpError(401, ErrorCode.unauthorized, message);
export const forbidden = (message: string): HttpError => new HttpError(403, ErrorCode.forbidden, message);
export const badRequest = (message: string, issues?: Issue[]): HttpError =>
  new HttpError(400, ErrorCode.validation, message, issues);
