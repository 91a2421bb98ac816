import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentGraph } from '../graph/agent-graph';
import { AGENT_SCHEMAS } from '../graph/agent-schemas';
import type { DeploymentStore, RunStore } from '../store/deployment-store';
import { openSqliteDeploymentStore } from '../store/sqlite/sqlite-deployment-store';
import { createRunEvents } from './run-events';
import { createRunExecutor } from './run-executor';
import { createRunManager, type NewRunRequest } from './run-manager';
import { createRunStreamLog } from './run-stream-log';
import { createProcessThreadLock } from './thread-lock';

/**
 * The moment a rollback reaches the replica that executes run 1 while run 1's end is being
 * recorded: the run has finished, its `success` is on its way to the database, and other
 * replicas may already read it. The owner decides once: run 1 stays finished (its record and
 * its messages), and the rollback has nothing left to undo. Before, the owner then deleted it,
 * after the other replica had started run 2 on top of run 1's last checkpoint.
 */
describe('a rollback reaching a run whose end is being recorded', () => {
  let dataDir: string;
  let store: DeploymentStore;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'run-end-race-'));
    store = await openSqliteDeploymentStore(dataDir);
  });

  afterEach(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the finished run and what it wrote', async () => {
    // Run 1's `success` is held until the rollback has been asked for.
    let recording!: () => void;
    const recordingStarted = new Promise<void>((resolve) => (recording = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const runs: RunStore = {
      ...store.runs,
      async setStatus(runId, status, error) {
        if (status === 'success') {
          recording();
          await released;
        }
        return store.runs.setStatus(runId, status, error);
      },
    };
    const checkpointer = store.checkpointer.saver;
    const graph = createAgentGraph({ checkpointer, stepMs: 0 });
    const withThreadLock = createProcessThreadLock();
    const events = createRunEvents();
    const streams = createRunStreamLog();
    const executor = createRunExecutor({
      graphFor: async () => ({ graphId: 'agent', runtime: graph, schemas: AGENT_SCHEMAS }),
      runMetadata: store.checkpointer.runMetadata,
      writes: store.checkpointer.writes,
      runs,
      withThreadLock,
      events,
      streams,
    });
    const manager = createRunManager({
      runs,
      executor,
      events,
      streams,
      checkpoints: store.checkpoints,
      withThreadLock,
    });
    const thread = await store.threads.create({});
    const threadId = thread?.thread_id ?? '';
    const request = (content: string): NewRunRequest => ({
      assistantId: 'agent',
      input: { messages: [{ role: 'human', content }] },
      metadata: {},
      strategy: 'rollback',
      kwargs: { stream_mode: ['values'], stream_subgraphs: false, stream_resumable: false },
    });

    const run1 = await manager.create(threadId, async () => request('weather in sf?'));
    if (!('run_id' in run1)) throw new Error(JSON.stringify(run1));
    await recordingStarted;
    const rollback = manager.cancel(run1, 'rollback');
    release();
    expect(await rollback).toBeUndefined();

    expect((await store.runs.get(threadId, run1.run_id))?.status).toBe('success');
    const head = await checkpointer.getTuple({ configurable: { thread_id: threadId } });
    const messages = (head?.checkpoint.channel_values.messages ?? []) as { content: unknown }[];
    expect(messages.map((message) => message.content)[0]).toBe('weather in sf?');
    expect(messages).toHaveLength(4);
    await executor.close();
  });
});
