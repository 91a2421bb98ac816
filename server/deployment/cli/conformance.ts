import { parseArgs } from 'node:util';
import { formatConformanceTable, runConformance } from '../conformance/run-conformance';

const USAGE = `Usage: npm run conformance -- --deployment-url URL [--api-key KEY] [--assistant agent]
                               [--later-ms 2000]
Runs the double-texting contract (rollback, triple-texting, interrupt, reject, enqueue, 404 for a
deleted run) against a LangGraph deployment through the official SDK. Exit code 1 on any failure.`;

async function main() {
  const { values } = parseArgs({
    options: {
      'deployment-url': { type: 'string' },
      'api-key': { type: 'string' },
      assistant: { type: 'string', default: 'agent' },
      'later-ms': { type: 'string', default: '2000' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const laterMs = Number(values['later-ms']);
  if (values.help || !values['deployment-url'] || !Number.isFinite(laterMs)) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const results = await runConformance({
    deploymentUrl: values['deployment-url'],
    apiKey: values['api-key'] ?? process.env.LANGGRAPH_API_KEY,
    assistantId: values.assistant,
    laterMs,
  });
  console.log(formatConformanceTable(results));
  process.exit(results.every((r) => r.pass) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error('Conformance run failed to start:', error);
  process.exit(2);
});
