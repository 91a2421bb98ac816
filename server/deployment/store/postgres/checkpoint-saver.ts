import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';

const KEEP_FIRST = 'ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING';
const LATEST_WINS =
  'ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO UPDATE SET type = EXCLUDED.type, blob = EXCLUDED.blob';

/**
 * The official Postgres checkpointer, with one change: a channel value written again under a
 * version already stored replaces it. The JS saver numbers versions 1, 2, 3 per branch and kept
 * the first value (`DO NOTHING`), so a state update forking from an earlier checkpoint wrote its
 * messages under a version the old branch had used and read the old branch's messages back (the
 * fork test of thread-state.test.ts caught it). Versions stay the saver's own: LangGraph's
 * interrupt handling depends on them counting up by one (random or clock-based versions broke the
 * `interrupt` strategy tests). The cost: a superseded branch's checkpoint may show the fork's value.
 */
export class BranchSafePostgresSaver extends PostgresSaver {
  constructor(pool: pg.Pool, options: { schema: string }) {
    super(pool, undefined, options);
    const statements: unknown = Reflect.get(this, 'SQL_STATEMENTS');
    const upsert: unknown = Reflect.get(Object(statements), 'UPSERT_CHECKPOINT_BLOBS_SQL');
    if (typeof upsert !== 'string' || !upsert.includes(KEEP_FIRST)) {
      throw new Error('@langchain/langgraph-checkpoint-postgres changed its blob upsert: re-check');
    }
    Reflect.set(
      Object(statements),
      'UPSERT_CHECKPOINT_BLOBS_SQL',
      upsert.replace(KEEP_FIRST, LATEST_WINS),
    );
  }
}
