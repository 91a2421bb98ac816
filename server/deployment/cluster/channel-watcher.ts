import type { Redis } from 'ioredis';

/** A reader's hold on a channel: `next()` resolves at the channel's next message. */
export interface ChannelWatch {
  next: () => Promise<void>;
  release: () => void;
}

interface Watched {
  count: number;
  /** One promise per channel, shared by its readers, settled and replaced at each message. */
  message?: { promise: Promise<void>; resolve: () => void };
  subscribed: Promise<unknown>;
}

/** Settles the channel's pending message promise, if a reader is waiting on one. */
function deliver(entry: Watched) {
  const { message } = entry;
  entry.message = undefined;
  message?.resolve();
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
    if (entry) deliver(entry);
  });

  return async function watch(channel: string): Promise<ChannelWatch> {
    let entry = watched.get(channel);
    if (!entry) {
      entry = { count: 0, subscribed: subscriber.subscribe(channel) };
      watched.set(channel, entry);
    }
    entry.count += 1;
    const held = entry;
    await held.subscribed;
    return {
      next() {
        if (!held.message) {
          let resolve = () => {};
          const promise = new Promise<void>((settle) => (resolve = settle));
          held.message = { promise, resolve };
        }
        return held.message.promise;
      },
      release() {
        held.count -= 1;
        if (held.count > 0 || watched.get(channel) !== held) return;
        watched.delete(channel);
        deliver(held);
        void subscriber.unsubscribe(channel).catch(() => undefined);
      },
    };
  };
}

export type WatchChannel = ReturnType<typeof createChannelWatcher>;
