import { describe } from 'vitest';
import { HAVE_SCALE_OUT_SERVERS, SKIP_REASON } from './fresh-stores';
import { defineUsageContract } from './usage-contract';

describe.skipIf(!HAVE_SCALE_OUT_SERVERS)(
  `usage backend contract: ClickHouse + Postgres (skipped when ${SKIP_REASON})`,
  () => defineUsageContract('clickhouse'),
);
