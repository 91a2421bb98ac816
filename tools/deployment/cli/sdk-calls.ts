import { parseCliArgs, requiredArg, runCli } from '@server/lib/cli-args';
import { formatConformanceTable } from '../conformance/run-conformance';
import { runSdkCalls } from '../conformance/run-sdk-calls';

const USAGE = `Usage: npm run sdk-calls -- --deployment-url URL [--api-key KEY] [--graph agent]
Makes the common @langchain/langgraph-sdk calls (assistants, threads, runs, store, crons) against a
LangGraph deployment and prints which work.
Exit codes: 0 all worked, 1 a call failed or the deployment cannot be reached, 2 bad arguments.`;

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    'deployment-url': { type: 'string' },
    'api-key': { type: 'string' },
    graph: { type: 'string', default: 'agent' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const results = await runSdkCalls({
    deploymentUrl: requiredArg('deployment-url', values['deployment-url']),
    apiKey: values['api-key'] ?? process.env.LANGGRAPH_API_KEY,
    graphId: values.graph,
  });
  console.log(formatConformanceTable(results));
  return results.every((r) => r.pass) ? 0 : 1;
}

runCli(USAGE, main);
