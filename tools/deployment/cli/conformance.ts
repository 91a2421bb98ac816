import { parseCliArgs, requiredArg, numberArg, runCli } from '@server/lib/cli-args';
import { formatConformanceTable, runConformance } from '../conformance/run-conformance';

const USAGE = `Usage: npm run conformance -- --deployment-url URL [--api-key KEY] [--assistant agent]
                               [--later-ms 2000]
Runs the double-texting contract (rollback, triple-texting, interrupt, reject, enqueue, 404 for a
deleted run) against a LangGraph deployment through the official SDK.
Exit codes: 0 all passed, 1 a case failed or the deployment cannot be reached, 2 bad arguments.`;

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    'deployment-url': { type: 'string' },
    'api-key': { type: 'string' },
    assistant: { type: 'string', default: 'agent' },
    'later-ms': { type: 'string', default: '2000' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const deploymentUrl = requiredArg('deployment-url', values['deployment-url']);
  const laterMs = numberArg('later-ms', values['later-ms'], 0);
  const results = await runConformance({
    deploymentUrl,
    apiKey: values['api-key'] ?? process.env.LANGGRAPH_API_KEY,
    assistantId: values.assistant,
    laterMs,
  });
  console.log(formatConformanceTable(results));
  return results.every((r) => r.pass) ? 0 : 1;
}

runCli(USAGE, main);
