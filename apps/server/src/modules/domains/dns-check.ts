import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import type { DomainCheckFailure } from '@embudo/contracts';

/** The lookups a check makes: node's DNS resolver, or a stand-in in unit tests. */
export type DnsLookups = Pick<dns.Resolver, 'resolveTxt' | 'resolveCname' | 'resolve4' | 'resolve6'>;

/** The name of the TXT record that proves a host is the owner's (decision 27). */
export const verifyRecordName = (host: string) => `_embudo-verify.${host}`;

/**
 * Node's resolver asking `servers` (`ip` or `ip:port`; the system's own when empty). Few tries and a
 * short timeout: a check that cannot reach DNS says so (DNS_ERROR) and the next one tries again.
 */
export function createDnsLookups(servers: readonly string[], timeoutMs = 2000): DnsLookups {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return resolver;
}

/** The name does not exist, or has no record of that type: an answer, not a failure to get one. */
const isNoAnswer = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === dns.NODATA || code === dns.NOTFOUND;
};

const normalName = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** The records of one type, [] when there are none; a DNS failure throws. */
async function records<T>(lookup: () => Promise<T[]>): Promise<T[]> {
  try {
    return await lookup();
  } catch (error) {
    if (isNoAnswer(error)) return [];
    throw error;
  }
}

/** The host's IPv4 and IPv6 addresses (an address literal is its own). */
async function addresses(lookups: DnsLookups, name: string): Promise<string[]> {
  if (isIP(name) !== 0) return [name.toLowerCase()];
  const [v4, v6] = await Promise.all([
    records(() => lookups.resolve4(name)),
    records(() => lookups.resolve6(name)),
  ]);
  return [...v4, ...v6.map((address) => address.toLowerCase())];
}

/**
 * Looks up a custom domain's two records: the TXT `_embudo-verify.{host}` must hold `token`, and the
 * host must point at `target` (a CNAME to it, or A/AAAA records with one of its addresses). Null when
 * both hold; otherwise the first reason that does not, ownership first.
 */
export async function checkDomainRecords(
  lookups: DnsLookups,
  { host, token, target }: { host: string; token: string; target: string },
): Promise<DomainCheckFailure | null> {
  try {
    const txt = await records(() => lookups.resolveTxt(verifyRecordName(host)));
    if (txt.length === 0) return 'TXT_MISSING';
    // A TXT record's value may come in chunks of 255 characters: joined, they are the value.
    if (!txt.some((chunks) => chunks.join('').trim() === token)) return 'TXT_WRONG';

    const wanted = normalName(target);
    const cnames = await records(() => lookups.resolveCname(host));
    if (cnames.some((name) => normalName(name) === wanted)) return null;
    // No CNAME, or one that leads to the target through another name: compare the addresses.
    const [hostAddresses, targetAddresses] = await Promise.all([
      addresses(lookups, host),
      addresses(lookups, wanted),
    ]);
    return hostAddresses.some((address) => targetAddresses.includes(address)) ? null : 'NOT_POINTING';
  } catch {
    return 'DNS_ERROR';
  }
}
