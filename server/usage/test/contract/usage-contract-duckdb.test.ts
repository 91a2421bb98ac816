import { describe } from 'vitest';
import { defineUsageContract } from './usage-contract';

describe('usage backend contract: DuckDB', () => defineUsageContract('duckdb'));
