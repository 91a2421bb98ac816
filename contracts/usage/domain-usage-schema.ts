import { z } from 'zod/mini';
import { CSV_BUCKET_AND_DIMENSION_COLUMNS, strideSchema } from './usage-schema';

/**
 * The frame every usage domain beyond traces shares on the wire (deployments, LLM usage): a
 * record is a bucket start, the group's dimensions and the domain's metrics, in that key order; a
 * response is the stride and the records; the CSV is the traces CSV's time and dimension columns,
 * then the domain's value columns. A domain names only its dimensions, metrics and columns.
 */

/** A count metric: a non-negative integer. */
export const usageCount = z.int().check(z.nonnegative());

/** The record and response schemas of a domain, from its dimensions and metrics. */
export function domainUsageSchemas<
  Dimensions extends z.ZodMiniType,
  Metrics extends Record<string, z.ZodMiniType>,
>(dimensions: Dimensions, metrics: Metrics) {
  const record = z.object({
    /** Bucket start, ISO 8601 UTC. */
    time_bucket: z.iso.datetime({ offset: true }),
    dimensions,
    ...metrics,
  });
  const response = z.object({ stride: strideSchema, usage: z.array(record) });
  return { record, response };
}

/** A domain's CSV header: the time and dimension columns, then its value columns in order. */
export function domainCsvColumns<const Values extends Record<string, string>>(
  valueColumns: Values,
): readonly [...typeof CSV_BUCKET_AND_DIMENSION_COLUMNS, ...(keyof Values & string)[]] {
  return [
    ...CSV_BUCKET_AND_DIMENSION_COLUMNS,
    ...(Object.keys(valueColumns) as (keyof Values & string)[]),
  ];
}
