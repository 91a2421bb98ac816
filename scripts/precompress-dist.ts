import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * Writes `.br` and `.gz` beside every text asset of dist/ (at the strongest settings: this runs
 * once per build, not per request). The server's static handler sends them to clients that
 * accept them (`precompressed: true` in server/app.ts); the rest is compressed per response.
 */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
const distDir = path.resolve(process.argv[2] ?? 'dist');

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function main() {
  const files = (await readdir(distDir, { recursive: true })).filter((file) =>
    TEXT_FILE.test(file),
  );
  let raw = 0;
  let compressed = 0;
  for (const file of files) {
    const full = path.join(distDir, file);
    const content = await readFile(full);
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gzipAsync(content, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${full}.br`, br), writeFile(`${full}.gz`, gz)]);
    raw += content.length;
    compressed += br.length;
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`Precompressed ${files.length} files: ${kb(raw)} -> ${kb(compressed)} brotli.`);
}

await main();
