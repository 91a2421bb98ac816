import { matchesSubscription } from '@langchain/langgraph/stream';
import type { EventFilter, ProtocolEvent } from './protocol-types';

type Subscription = Parameters<typeof matchesSubscription>[1];

/**
 * Whether `event` is one `filter` selects (channel, namespace prefix and depth, `since`), by
 * LangGraph's own matcher, which the official server and the SDK use too. The filter's channels
 * were checked by the request schemas (`isSupportedChannel`).
 */
export const matchesFilter = (filter: EventFilter, event: ProtocolEvent) =>
  matchesSubscription(event, filter as Subscription);
