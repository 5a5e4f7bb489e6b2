import { Redis } from 'ioredis';
import { createLocalDomainChanges, type DomainChanges } from './served-hosts';

/** The Redis channel every process of one Embudo publishes its domain changes on. */
const CHANNEL = 'embudo:domain-changes';

export interface SharedDomainChanges extends DomainChanges {
  close(): Promise<void>;
}

/**
 * Domain changes shared by every process through Redis publish/subscribe (decision 27, several
 * processes: decision 28): a domain removed or checked through one process drops the TLS ask's kept
 * answer in all of them at once. Listeners in this process hear a change at once, and again when it
 * comes back from Redis (dropping an answer twice costs nothing). A Redis outage leaves each process
 * with its own changes and the answers' 30 s lifetime, and is logged; the subscription is made again
 * when Redis answers again.
 */
export function createRedisDomainChanges(url: string, warn: (error: Error) => void): SharedDomainChanges {
  const local = createLocalDomainChanges();
  const publisher = new Redis(url, { maxRetriesPerRequest: 1 });
  // A subscriber waits for Redis as long as it takes: its subscription is queued until it connects.
  const subscriber = new Redis(url, { maxRetriesPerRequest: null });
  publisher.on('error', warn);
  subscriber.on('error', warn);
  subscriber.on('message', (channel: string, host: string) => {
    if (channel === CHANNEL) local.publish(host);
  });
  subscriber.subscribe(CHANNEL).catch(warn);
  return {
    publish(host) {
      local.publish(host);
      publisher.publish(CHANNEL, host).catch(warn);
    },
    subscribe: (listener) => local.subscribe(listener),
    async close() {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
