import { parseCliArgs, requiredArg, runCli } from '@server/lib/cli-args';
import { runProtocolCases } from '../conformance/protocol-cases';
import { formatConformanceTable } from '../conformance/run-conformance';

const USAGE = `Usage: npm run protocol-cases -- --deployment-url URL
Drives protocol v2 (commands, SSE and WebSocket events) with the SDK 1.15 ThreadStream against a
deployment serving the graphs "agent" (the demo weather agent) and "approval" (interrupt()), and
prints which cases pass: the side-by-side check of the deployment README.
Exit codes: 0 all passed, 1 a case failed, 2 bad arguments.`;

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    'deployment-url': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const results = await runProtocolCases(requiredArg('deployment-url', values['deployment-url']));
  console.log(formatConformanceTable(results));
  return results.every((result) => result.pass) ? 0 : 1;
}

runCli(USAGE, main);
