import type { Redis } from 'ioredis';

/** A reader's hold on a channel: `next()` resolves at the channel's next message. */
export interface ChannelWatch {
  next: () => Promise<void>;
  release: () => void;
}

interface Watched {
  count: number;
  waiters: Set<() => void>;
  subscribed: Promise<unknown>;
}

/**
 * Redis channels subscribed only while someone here reads them, over one subscriber connection
 * (a replica holds one connection for all its readers, not one per blocked reader). `watch`
 * resolves once the subscription is acknowledged, so a reader that reads its key after that
 * cannot miss a message sent in between.
 */
export function createChannelWatcher(subscriber: Redis) {
  const watched = new Map<string, Watched>();
  subscriber.on('message', (channel: string) => {
    const entry = watched.get(channel);
    if (!entry) return;
    const waiters = [...entry.waiters];
    entry.waiters.clear();
    waiters.forEach((wake) => wake());
  });

  return async function watch(channel: string): Promise<ChannelWatch> {
    let entry = watched.get(channel);
    if (!entry) {
      entry = { count: 0, waiters: new Set(), subscribed: subscriber.subscribe(channel) };
      watched.set(channel, entry);
    }
    entry.count += 1;
    const held = entry;
    await held.subscribed;
    return {
      next: () => new Promise<void>((resolve) => held.waiters.add(resolve)),
      release() {
        held.count -= 1;
        if (held.count > 0 || watched.get(channel) !== held) return;
        watched.delete(channel);
        held.waiters.forEach((wake) => wake());
        void subscriber.unsubscribe(channel).catch(() => undefined);
      },
    };
  };
}

export type WatchChannel = ReturnType<typeof createChannelWatcher>;
