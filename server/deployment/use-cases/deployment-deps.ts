import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { AssistantRegistry } from './assistant-registry';
import type { AgentGraph } from '../graph/agent-graph';
import type { GraphRegistry } from '../graph/graph-registry';
import type { RunEvents } from '../runs/run-events';
import type { RunManager } from '../runs/run-manager';
import type { RunStreamLog } from '../runs/run-stream-log';
import type {
  CheckpointRollback,
  CronStore,
  RunStore,
  ThreadStore,
} from '../store/deployment-store';
import type { ThreadTtl, ThreadTtlStore } from '../store/thread-ttl';
import type { WebhookPolicy } from '../webhooks/webhook-policy';

/** What the route handlers use; built once by the deployment service. */
export interface DeploymentDeps {
  assistants: AssistantRegistry;
  /** The served graphs by id, for the thread-state and assistant endpoints. */
  graphs: GraphRegistry;
  threads: ThreadStore;
  runs: RunStore;
  manager: RunManager;
  graph: AgentGraph;
  checkpointer: BaseCheckpointSaver;
  /** Each run's SSE events, for `runs.stream` and `joinStream`. */
  streams: RunStreamLog;
  /** Run ends and run starts (across replicas in cluster mode), for joins that wait on them. */
  events: RunEvents;
  crons: CronStore;
  /** The webhook rules runs and crons are checked against when created. */
  webhooks: WebhookPolicy;
  /** Checkpoint surgery (`keep_latest` prunes). */
  checkpoints: Pick<CheckpointRollback, 'keepLatest'>;
  /** Threads' time to live, and the one a thread created without `ttl` gets. */
  ttls: ThreadTtlStore;
  defaultTtl?: ThreadTtl;
}
