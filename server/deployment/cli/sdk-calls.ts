import { parseArgs } from 'node:util';
import { formatConformanceTable } from '../conformance/run-conformance';
import { runSdkCalls } from '../conformance/run-sdk-calls';

const USAGE = `Usage: npm run sdk-calls -- --deployment-url URL [--api-key KEY] [--graph agent]
Makes the common @langchain/langgraph-sdk calls (assistants, threads, runs, store, crons) against a
LangGraph deployment and prints which work. Exit code 1 when any fails.`;

async function main() {
  const { values } = parseArgs({
    options: {
      'deployment-url': { type: 'string' },
      'api-key': { type: 'string' },
      graph: { type: 'string', default: 'agent' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values['deployment-url']) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const results = await runSdkCalls({
    deploymentUrl: values['deployment-url'],
    apiKey: values['api-key'] ?? process.env.LANGGRAPH_API_KEY,
    graphId: values.graph,
  });
  console.log(formatConformanceTable(results));
  process.exit(results.every((r) => r.pass) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error('SDK calls failed to start:', error);
  process.exit(2);
});
