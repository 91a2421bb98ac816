import { Hono } from 'hono';
import type { Config } from '../config';
import { DEPLOYMENT_BODY_LIMIT_BYTES, limitBody } from '../http/body-limit';
import { drainUnreadBody } from '../http/drain-body';
import { deploymentCorsPolicy } from '../http/cors-policy';
import { jsonError } from '../http/json-error';
import type { Service } from '../http/service';
import { requireUuidParams } from '../http/uuid-params';
import { createAssistantRegistry } from './use-cases/assistant-registry';
import { authDoor } from './auth/auth-door';
import { inProcessFetch, serveFor } from './auth/in-process-caller';
import { openAuthPolicy } from './auth/auth-policy-from-config';
import { createAgentGraph } from './graph/agent-graph';
import { AGENT_SCHEMAS } from './graph/agent-schemas';
import { answerDanglingToolCalls } from './graph/answer-dangling-tool-calls';
import { AGENT_GRAPH_ID } from './graph/graph-id';
import { createGraphRegistry } from './graph/graph-registry';
import { loadLangGraphConfig } from './graph/langgraph-config';
import { createAssistantRoutes } from './http/assistant-routes';
import { createCancelRunsRoute } from './http/cancel-runs-route';
import { createCronRoutes, fireCron } from './crons/cron-routes';
import { createCronScheduler } from './crons/cron-scheduler';
import type { DeploymentDeps } from './use-cases/deployment-deps';
import { createRunRoutes } from './http/run-routes';
import { createThreadRoutes } from './http/thread-routes';
import { plainTextNotFound } from './wire/plain-not-found';
import { sseHeartbeats } from './wire/sse-heartbeat';
import { capOpenStreams } from './http/stream-caps';
import { refuseUnstorableUrl } from './wire/unstorable-url';
import { createRunEvents } from './runs/run-events';
import { createRunExecutor } from './runs/run-executor';
import { createRunCompletion } from './runs/run-completion';
import { createRunManager } from './runs/run-manager';
import {
  countFinishedRun,
  registerPoolGauge,
  registerRunGauges,
  type RunMetrics,
} from './runs/run-metrics';
import { createRunStreamLog } from './runs/run-stream-log';
import { createRunTracing, type TracingTarget } from './runs/run-tracing';
import { createProcessThreadLock } from './runs/thread-lock';
import { openCluster } from './cluster/open-cluster';
import type { MeteringTarget } from './metering/metrics-reporter';
import { createRunMetering } from './metering/run-metering';
import { GraphStore } from './store/graph-store';
import { openDeploymentStore } from './store/open-deployment-store';
import type { RunRecord } from './store/records';
import { createStoreRoutes } from './http/store-routes';
import { createStatelessRunRoutes } from './http/stateless-run-routes';
import { serverInfo } from './http/server-info';
import { createProtocol } from './protocol/protocol-routes';
import { createThreadEventLog } from './protocol/thread-event-log';
import { createTruncateRoute } from './http/truncate-route';
import { createUiRoutes } from './http/ui-routes';
import { createWebhookSender } from './webhooks/deliver-webhook';
import { webhookPolicyOf } from './webhooks/webhook-config';
import { createThreadTtlSweeper } from './ttl/thread-ttl-sweeper';
import { storeTtlSettingsOf, threadTtlSettingsOf } from './ttl/ttl-config';
import { deleteThread } from './use-cases/thread-deletion';

/**
 * A graph or route that makes a `new Client()` without a URL reaches this API in-process, as
 * on the official server (the SDK looks these two global symbols up), for the caller being served.
 */
function serveSdkInProcess(app: Hono): void {
  Reflect.set(globalThis, Symbol.for('langgraph_api:fetch'), inProcessFetch(app));
  Reflect.set(globalThis, Symbol.for('langgraph_api:url'), 'http://localhost');
}

/** Methods whose `/threads/{x}` and `/runs/{x}` paths name an existing thread or run. */
const ID_METHODS = ['GET', 'PATCH', 'DELETE'];
const ORPHANED_RUN_REASON = 'The server stopped while this run was in flight; it was not resumed.';

/** The graph a run was created for (`configurable.graph_id`, see runConfigFor). */
function graphIdOf(run: RunRecord): string | undefined {
  const graphId = run.kwargs.config?.configurable?.graph_id;
  return typeof graphId === 'string' ? graphId : undefined;
}

/**
 * The LangGraph-compatible deployment API (assistants, threads, runs, multitask strategies, the
 * store) serving the demo `agent` graph, with everything stored in `DATA_DIR/deployment.sqlite`.
 */
export async function createDeploymentService(
  config: Config,
  options: {
    tracingTarget?: () => TracingTarget | undefined;
    /** Meters runs, nodes and uptime into the usage service (see metering/run-metering.ts). */
    meteringTarget?: () => MeteringTarget | undefined;
    /** Where run counts and gauges go (`/metrics`); none when metrics are off. */
    metrics?: RunMetrics;
    /** The embedded usage API (`…/api/v1`) that checks keys in `langsmith` mode. */
    usageApiBase?: () => string | undefined;
  } = {},
): Promise<Service> {
  const store = await openDeploymentStore(config);
  const { threads, runs, kv, crons } = store;
  const checkpointer = store.checkpointer.saver;
  const cluster = await openCluster(config, store);
  const withThreadLock = cluster?.withThreadLock ?? createProcessThreadLock();
  const graph = createAgentGraph({ checkpointer, stepMs: config.DEMO_MODEL_STEP_MS });
  // Known once the langgraph.json is read, after its graphs got their store.
  let storeTtl = storeTtlSettingsOf(undefined);
  // The graphs of a langgraph.json when one is configured, else the demo graph.
  const loaded = config.LANGGRAPH_CONFIG
    ? await loadLangGraphConfig(config.LANGGRAPH_CONFIG, {
        checkpointer,
        // A run's nodes see its langsmith key's workspace's items, as the key does.
        store: new GraphStore(
          kv,
          () => storeTtl,
          () => auth.mode === 'langsmith',
        ),
      })
    : undefined;
  const auth = await openAuthPolicy(config, {
    usageApiBase: options.usageApiBase,
    langgraphAuth: loaded?.auth,
  });
  const graphs = createGraphRegistry(
    loaded?.graphs ?? [{ graphId: AGENT_GRAPH_ID, runtime: graph, schemas: AGENT_SCHEMAS }],
    async (threadId) => (await runs.latest(threadId))?.kwargs.config,
  );
  const assistants = await createAssistantRegistry(
    store.assistants,
    graphs.ids(),
    loaded?.assistantDefaults,
  );
  // Cluster mode shares run ends and stream events across replicas through Redis.
  const events = cluster?.events ?? createRunEvents();
  const streams = cluster?.streams ?? createRunStreamLog();
  const webhooks = webhookPolicyOf(config, loaded?.webhooks);
  // A relative webhook is a route of this API, called in-process (the app is built below).
  const webhookSender = createWebhookSender(webhooks, {
    loopback: (request) => app.fetch(request),
  });
  const complete = createRunCompletion({
    removeThread: store.checkpoints.removeThread,
    sendWebhook: webhookSender.send,
  });
  const { metrics } = options;
  const onFinished: typeof complete = (run, values) => {
    if (metrics) countFinishedRun(metrics, run);
    complete(run, values);
  };
  // Traces go to a project named after the graph, as on LangGraph Platform.
  const tracing = options.tracingTarget && createRunTracing(options.tracingTarget);
  const metering =
    options.meteringTarget &&
    createRunMetering(options.meteringTarget, graphs.ids(), config.REMOTE_METRICS_INTERVAL_MS);
  const executor = createRunExecutor({
    runMetadata: store.checkpointer.runMetadata,
    writes: store.checkpointer.writes,
    // As the official server: the graph recorded in the run's config when it was created.
    graphFor: async (run) =>
      graphs.withConfig(
        graphs.forGraphId(
          graphIdOf(run) ?? (await assistants.get(run.assistant_id))?.graph_id ?? '',
        ),
        run.kwargs.config ?? {},
      ),
    runs,
    withThreadLock,
    owner: cluster?.owner,
    leaseMs: cluster?.leaseMs,
    mayClaim: cluster?.holdsLiveness,
    events,
    streams,
    onFinished,
    tracing,
    meter: metering?.meter,
    // A run serves no one: its graph's `new Client()` sends its own credentials, if any.
    detached: (work) => serveFor(undefined, work),
  });
  const manager = createRunManager({
    runs,
    executor,
    events,
    streams,
    checkpoints: store.checkpoints,
    withThreadLock,
    stopElsewhere: cluster?.stopElsewhere,
    onRolledBack: metrics && ((count) => metrics.runsRolledBack(count)),
  });
  if (metrics) {
    registerRunGauges(metrics, { runs, executingCount: executor.executingCount });
    registerPoolGauge(metrics, store.poolSize);
    const { poolSize } = store;
    metrics.databaseClients(() => ({
      ...(poolSize && { deployment: poolSize() }),
      ...cluster?.clientSizes(),
    }));
  }
  const threadTtl = loaded?.threadTtl ?? threadTtlSettingsOf(undefined);
  storeTtl = loaded?.storeTtl ?? storeTtl;
  const deps: DeploymentDeps = {
    assistants,
    graphs,
    threads,
    runs,
    manager,
    graph,
    checkpointer,
    streams,
    events,
    crons,
    webhooks,
    checkpoints: store.checkpoints,
    ttls: store.ttls,
    defaultTtl: threadTtl.defaultTtl,
  };

  // Runs cut off by a crash are marked, and a tool call they left unanswered gets a tool message
  // saying it was cancelled; runs still queued at the last shutdown start now.
  // In cluster mode other replicas' runs are running: expired leases are settled instead.
  const crashedThreads = cluster ? [] : await runs.threadsWithRunningRuns();
  if (!cluster) await runs.failOrphanedRuns(ORPHANED_RUN_REASON);
  for (const threadId of crashedThreads) await answerDanglingToolCalls(graph, threadId);
  (await runs.threadsWithPendingRuns()).forEach((threadId) => void executor.kick(threadId));
  cluster?.start({
    withThreadLock,
    isExecuting: executor.isExecuting,
    executingRuns: executor.executingRuns,
    stopHere: manager.stopHere,
    kick: executor.kick,
    abandonHere: executor.abandon,
    repairThread: async (threadId) => {
      await answerDanglingToolCalls(graph, threadId);
    },
    onLeaseExpired: metrics && ((outcome) => metrics.leaseExpired(outcome)),
  });

  const app = new Hono();
  app.use('*', drainUnreadBody());
  app.use('*', limitBody(DEPLOYMENT_BODY_LIMIT_BYTES));
  app.use('*', sseHeartbeats(config.SSE_HEARTBEAT_INTERVAL_MS));
  // Every request is authenticated and authorized here, before any route reads or writes.
  app.use('*', authDoor(auth, { threads, assistants, crons }));
  // Inside the heartbeats, so a stream's slot is given back when its client goes away.
  app.use(
    '*',
    capOpenStreams({
      perClient: config.DEPLOYMENT_STREAMS_PER_CLIENT,
      total: config.DEPLOYMENT_MAX_STREAMS,
    }),
  );
  if (loaded) app.use('*', plainTextNotFound());
  // Ids are checked before any route reads or writes: POST /threads/search stays a route.
  app.on(ID_METHODS, '/threads/:threadId', requireUuidParams('threadId'));
  app.use('/threads/:threadId/:area/*', requireUuidParams('threadId'));
  app.on(ID_METHODS, '/threads/:threadId/runs/:runId', requireUuidParams('runId'));
  app.use('/threads/:threadId/runs/:runId/:action', requireUuidParams('runId'));
  // After the UUID checks, which answer those ids in FastAPI's shape: the other ids and queries.
  app.use('*', refuseUnstorableUrl());
  if (config.DEPLOYMENT_TEST_ROUTES) {
    app.route(
      '/internal',
      createTruncateRoute(store.truncate, () => executor.stopAll()),
    );
  }
  // A langgraph.json's `http.app` goes first: its middleware wraps the API routes too, and its
  // routes win over ours, as on the official server.
  if (loaded?.httpApp) app.route('/', loaded.httpApp);
  if (loaded) serveSdkInProcess(app);
  app.get('/ok', (c) => c.json({ ok: true }));
  app.get('/info', (c) => c.json(serverInfo(Boolean(tracing))));
  app.route('/assistants', createAssistantRoutes(deps));
  const protocol = createProtocol(deps, cluster?.threadEvents ?? createThreadEventLog());
  app.route('/threads', protocol.app);
  app.route('/threads', createThreadRoutes(deps));
  const cronRoutes = createCronRoutes(deps);
  app.route('/threads/:threadId/runs/crons', cronRoutes.threadCrons);
  app.route('/threads/:threadId/runs', createRunRoutes(deps));
  app.route('/runs/crons', cronRoutes.crons);
  app.route('/runs', createCancelRunsRoute(deps));
  app.route('/runs', createStatelessRunRoutes(deps));
  app.route(
    '/store',
    createStoreRoutes(kv, () => storeTtl),
  );
  if (loaded?.ui) app.route('/ui', createUiRoutes(loaded.ui));
  app.notFound((c) => jsonError(c, 404, `Not Found: ${c.req.method} ${c.req.path}`));
  const scheduler = createCronScheduler({
    crons,
    fire: (cron) => fireCron(deps, cron),
    onError: (cron, error) => console.warn(`Cron ${cron.cron_id} did not fire: ${String(error)}`),
  });
  const ttlSweeper = createThreadTtlSweeper({
    ttls: store.ttls,
    checkpoints: store.checkpoints,
    deleteThread: (threadId) => deleteThread(deps, threadId),
    intervalMs: threadTtl.sweepIntervalMs,
    onError: (threadId, error) =>
      console.warn(`Expired thread ${threadId} was not swept: ${String(error)}`),
    store: { sweep: kv.sweepExpired, intervalMs: storeTtl.sweepIntervalMs },
  });

  return {
    name: 'deployment',
    basePath: '/deployment',
    app,
    cors: deploymentCorsPolicy(config.CORS_ALLOW_ORIGINS, loaded?.cors),
    ready: async () => loaded?.schemasReady,
    health: async () => ({
      threads: await threads.count(),
      runs: await runs.count(),
      executing: executor.executingCount(),
    }),
    // Executing runs stop (interrupted) and pending ones stay queued for the next start. In
    // cluster mode they get a grace period to finish, then go back to the queue for another replica.
    drain: async () => {
      scheduler.stop();
      ttlSweeper.stop();
      if (cluster) await executor.drain(cluster.shutdownGraceMs, cluster.requeue);
      await protocol.close();
      await manager.close();
      // Deliver the traces of the runs just stopped while the usage server still answers.
      await tracing?.flush();
      // The last metrics report: this replica's uptime ends here.
      await metering?.close();
    },
    close: async () => {
      scheduler.stop();
      ttlSweeper.stop();
      await protocol.close();
      await manager.close();
      await metering?.close();
      await cluster?.close();
      await store.close();
    },
  };
}
