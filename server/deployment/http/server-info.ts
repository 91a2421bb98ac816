/**
 * `GET /info` as the official JS server answers it. The SDK reads none of these flags to decide on
 * idle reconnects: `streamIdleReconnect: "auto"` arms itself from the heartbeats it sees.
 */
export function serverInfo(tracing: boolean) {
  return {
    version: '0.1.0',
    context: 'js',
    flags: {
      assistants: true,
      crons: true,
      langsmith: tracing,
    },
  };
}
