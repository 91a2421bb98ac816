import { numberArg, parseCliArgs, runCli, UsageError } from '@server/lib/cli-args';
import { startRoundRobinProxy } from '../cluster/round-robin-proxy';

const USAGE = `Usage: node --import tsx tools/deployment/cli/round-robin-proxy.ts --to URL --to URL [--port 8123]
Listens on 127.0.0.1:PORT and sends each request to the next --to base URL in turn (no
stickiness), streaming bodies both ways: a load balancer in front of cluster-mode replicas, e.g.
for npm run conformance -- --deployment-url http://127.0.0.1:8123. Stops on Ctrl-C.
Exit codes: 0 stopped, 2 bad arguments.`;

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    to: { type: 'string', multiple: true },
    port: { type: 'string', default: '8123' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const targets = values.to ?? [];
  if (targets.length < 1) throw new UsageError('--to: give at least one replica base URL');
  const invalid = targets.find((target) => !URL.canParse(target));
  if (invalid) throw new UsageError(`--to: not a URL: ${invalid}`);
  const proxy = await startRoundRobinProxy(targets, numberArg('port', values.port, 0));
  console.log(`round-robin proxy: ${proxy.url} -> ${targets.join(', ')}`);
  await new Promise<void>((resolve) => process.once('SIGINT', resolve));
  await proxy.close();
  return 0;
}

runCli(USAGE, main);
