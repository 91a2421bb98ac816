/** Where progress goes: stderr, or a stand-in in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  write(chunk: string): unknown;
}

/** How often the in-place line is redrawn. */
const REDRAW_MS = 500;

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * The export's progress. On a terminal one line is redrawn in place (`\r`); anywhere else (a log
 * file, a pipe, CI) carriage returns do not rewind, so the redraws would pile up on one line:
 * there only the summary line is written.
 */
export function createExportProgress(
  stream: ProgressStream,
  now: () => number = () => performance.now(),
) {
  const started = now();
  let drawn = started;
  return {
    /** `bytes` received so far. */
    update(bytes: number) {
      if (!stream.isTTY || now() - drawn < REDRAW_MS) return;
      drawn = now();
      stream.write(`\r${megabytes(bytes)}`);
    },
    /** The summary: size, time and (when writing a file) where it went. */
    done(bytes: number, out?: string) {
      const seconds = ((now() - started) / 1000).toFixed(1);
      const line = `${megabytes(bytes)} in ${seconds} s${out ? ` -> ${out}` : ''}\n`;
      stream.write(stream.isTTY ? `\r${line}` : line);
    },
  };
}
