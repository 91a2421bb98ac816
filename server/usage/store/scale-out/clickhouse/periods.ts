/** Days per period row (`usage_periods`, `llm_periods`): period `p` holds UTC day numbers `[128 p, 128 p + 128)`. */
export const PERIOD_DAYS = 128;

/** The period of a `Date` expression, as the period tables key it. */
export const periodOf = (day: string) => `toUInt16(intDiv(toUInt16(${day}), ${PERIOD_DAYS}))`;

/** The nil UUID: the `dim_id` of a NULL value (18.16 allows no Nullable column in a sort key). */
export const NIL_UUID = "toUUID('00000000-0000-0000-0000-000000000000')";

/** `has_dim, dim_id` of a trace or run column: `has_dim = 0` is the NULL value. */
export const dimensionColumns = (column: string, nullable: boolean) =>
  nullable
    ? `toUInt8(isNotNull(${column})) AS has_dim, ifNull(${column}, ${NIL_UUID}) AS dim_id`
    : `toUInt8(1) AS has_dim, ${column} AS dim_id`;
