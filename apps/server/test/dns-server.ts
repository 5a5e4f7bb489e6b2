import { createSocket } from 'node:dgram';
import dnsPacket, { type Answer } from 'dns-packet';

/** What the test zone holds for one name. */
export interface TestRecords {
  txt?: string[];
  cname?: string;
  a?: string[];
  aaaa?: string[];
}

export interface TestDnsServer {
  /** `127.0.0.1:{port}`, as DNS_SERVERS takes it. */
  address: string;
  /** Sets (replaces) a name's records. */
  set(name: string, records: TestRecords): void;
  remove(name: string): void;
  /** Names asked about so far, with the type asked, e.g. `TXT _embudo-verify.shop.test`. */
  asked: string[];
  close(): Promise<void>;
}

const NXDOMAIN = 3;
const TTL = 1;

/**
 * A tiny authoritative DNS server over UDP on the loopback, answering TXT, CNAME, A and AAAA from a
 * zone the test sets (decision 27's verification looks its records up here). A name with no record of
 * the type asked answers no data; an unknown name, NXDOMAIN. A and AAAA follow a CNAME inside the zone.
 */
export async function startTestDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, TestRecords>();
  const asked: string[] = [];
  const socket = createSocket('udp4');
  const key = (name: string) => name.toLowerCase().replace(/\.$/, '');

  function answersFor(name: string, type: string, depth = 0): Answer[] {
    const records = zone.get(key(name));
    if (!records || depth > 8) return [];
    const base = { name, ttl: TTL, class: 'IN' as const };
    if (type === 'TXT') return (records.txt ?? []).map((data) => ({ ...base, type: 'TXT', data }));
    if (records.cname !== undefined) {
      const cname: Answer = { ...base, type: 'CNAME', data: records.cname };
      return type === 'CNAME' ? [cname] : [cname, ...answersFor(records.cname, type, depth + 1)];
    }
    if (type === 'A') return (records.a ?? []).map((data) => ({ ...base, type: 'A', data }));
    if (type === 'AAAA') return (records.aaaa ?? []).map((data) => ({ ...base, type: 'AAAA', data }));
    return [];
  }

  socket.on('message', (message, remote) => {
    let query;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    asked.push(`${question.type} ${question.name}`);
    const known = zone.has(key(question.name));
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id ?? 0,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | (known ? 0 : NXDOMAIN),
      questions: [question],
      answers: known ? answersFor(question.name, question.type) : [],
    });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    set: (name, records) => zone.set(key(name), records),
    remove: (name) => zone.delete(key(name)),
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        socket.close(() => {
          resolve();
        });
      }),
  };
}
