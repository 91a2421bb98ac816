/**
 * Runs work nobody awaits (a timer's tick, a status write after the answer went out) so that its
 * failure is one warning line, never an unhandled rejection that ends the process: a database
 * away for a moment must cost that one piece of work, not every request in flight.
 */
export function inBackground(what: string, work: Promise<unknown>): void {
  work.catch((error: unknown) => {
    console.warn(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  });
}
