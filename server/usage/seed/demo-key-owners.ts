import { hashApiKey } from '@server/usage/store/api-key-hash';
import type { DemoKeyGrant } from './demo-keys';
import { stableUuid } from './stable-uuid';

/** The usage dimensions a demo key bills its traces to: its owner and its own API key row. */
export interface DemoKeyOwner {
  keyHash: string;
  userId: string;
  apiKeyId: string;
  shortKey: string;
}

/** Fixed ids, the same in every dataset (they depend on the key only, not on the profile). */
export function demoKeyOwner(grant: DemoKeyGrant): DemoKeyOwner {
  return {
    keyHash: hashApiKey(grant.key),
    userId: stableUuid('demo-key-owner', grant.key),
    apiKeyId: stableUuid('demo-key', grant.key),
    // LangSmith shows a key as its prefix and last characters, never in full.
    shortKey: `${grant.key.slice(0, 5)}...${grant.key.slice(-4)}`,
  };
}
