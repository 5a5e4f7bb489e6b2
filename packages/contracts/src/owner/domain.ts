import { z } from 'zod';
import { Hostname, Id, IsoDateTime } from '../primitives';

export const DomainCreate = z.strictObject({ host: Hostname });
export type DomainCreate = z.infer<typeof DomainCreate>;

/**
 * Where a custom domain stands (decision 27): `pending` until its DNS records are first seen,
 * `verified` while they are, `failing` once a verified domain's records are no longer seen (it keeps
 * serving for 7 days, then stops).
 */
export const DOMAIN_STATES = ['pending', 'verified', 'failing'] as const;
export const DomainState = z.enum(DOMAIN_STATES);
export type DomainState = z.infer<typeof DomainState>;

/** Why the last check did not verify the domain. */
export const DOMAIN_CHECK_FAILURES = ['TXT_MISSING', 'TXT_WRONG', 'NOT_POINTING', 'DNS_ERROR'] as const;
export const DomainCheckFailure = z.enum(DOMAIN_CHECK_FAILURES);
export type DomainCheckFailure = z.infer<typeof DomainCheckFailure>;

/** A DNS record the owner sets at their DNS provider. */
export const DnsRecord = z.object({
  type: z.enum(['TXT', 'CNAME']),
  /** The record's full name. */
  name: z.string(),
  value: z.string(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

export const Domain = z.object({
  id: Id,
  host: z.string(),
  createdAt: IsoDateTime,
  state: DomainState,
  /** Why the last check failed; null when it passed or none ran yet. */
  failure: DomainCheckFailure.nullable(),
  /** When the records were last looked up; null before the first check. */
  checkedAt: IsoDateTime.nullable(),
  /** Whether visitors are served at this host now (verified, or failing for less than the grace). */
  serving: z.boolean(),
  /** The two records to set: the TXT that proves ownership, and the CNAME to the operator's target. */
  records: z.object({ ownership: DnsRecord, target: DnsRecord }),
});
export type Domain = z.infer<typeof Domain>;

/** Caddy's on-demand TLS asks whether a host may have a certificate (decision 27). */
export const TlsAskQuery = z.strictObject({ domain: z.string().max(253) });
