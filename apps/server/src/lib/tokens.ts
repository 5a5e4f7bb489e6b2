import { createHmac, hash, randomBytes } from 'node:crypto';

/** 192 random bits, URL-safe: lead, preview and API tokens (architecture §5.5 asks for at least 128). */
const TOKEN_BYTES = 24;

export const API_KEY_PREFIX = 'emb_';

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function newApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Only this digest is stored; a token is shown once and never written down in clear. */
export function hashToken(token: string): string {
  // One-shot: a lead link's every request hashes its token.
  return hash('sha256', token, 'hex');
}

/**
 * A token derived from the instance secret and a label: unguessable without the secret, and the same
 * every time, so that idempotent jobs (the demo seed) can hand out the same link twice.
 */
export function deriveToken(secret: string, label: string, prefix = ''): string {
  const bytes = prefix === API_KEY_PREFIX ? 32 : TOKEN_BYTES;
  return (
    prefix + createHmac('sha256', secret).update(label).digest().subarray(0, bytes).toString('base64url')
  );
}

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): time-ordered, so rows created together list in creation order and indexes
 * grow at one end. A 12-bit sequence keeps ids made in the same millisecond in order.
 */
export function newId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    sequence++;
    if (sequence > 0xfff) {
      lastMs++;
      sequence = 0;
    }
    ms = lastMs;
  } else {
    lastMs = ms;
    sequence = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Looks like one of our tokens: used to keep them out of logs. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,}$/;
