import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit code for a usage mistake (unknown option, missing or malformed argument). */
export const USAGE_EXIT_CODE = 2;

/** A mistake in how the command was called: its message names the argument. */
export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `parseArgs` in strict mode, with Node's own messages (which name the option) turned into a
 * UsageError, so every CLI reports bad arguments the same way (see `runCli`).
 */
export function parseCliArgs<T extends Options>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** A number option: finite, at least `min`; otherwise a UsageError naming `--name`. */
export function numberArg(name: string, raw: string | undefined, min: number): number {
  const value = Number(raw);
  if (raw === undefined || raw.trim() === '' || !Number.isFinite(value) || value < min) {
    throw new UsageError(`--${name} must be a number ≥ ${min} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

/** A required option, or a UsageError naming it. */
export function requiredArg(name: string, raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') throw new UsageError(`--${name} is required`);
  return raw;
}

/** An error's message with its causes ("fetch failed: connect ECONNREFUSED 127.0.0.1:9"). */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let current = error; current !== undefined && parts.length < 4;) {
    parts.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ');
}

/**
 * Runs a CLI's `main` (which resolves with the exit code) and exits: a UsageError prints
 * `error: …` and the usage text, exit 2; any other failure prints its message, exit 1. No stack
 * trace either way: the reader is an operator, not a debugger (DEBUG=1 shows it).
 */
export function runCli(usage: string, main: (args: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(`error: ${error.message}\n\n${usage}`);
        process.exit(USAGE_EXIT_CODE);
      }
      console.error(`error: ${describeError(error)}`);
      if (process.env.DEBUG && error instanceof Error) console.error(error.stack);
      process.exit(1);
    },
  );
}
