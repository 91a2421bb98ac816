// Records other platforms' optional native packages in package-lock.json.
//
// Why: the registry this project is built from serves only the packages for this machine's
// platform (the others answer 404), so `npm install` leaves them out of the lock file and
// `npm ci` then refuses the lock as "out of sync". An entry restricted to its os/cpu, with no
// download address, satisfies `npm ci`, which skips packages for other platforms anyway.
// Run after any `npm install` that changes native dependencies: `node scripts/lock-foreign-platforms.mjs`.
// The entries are written in the key order npm itself writes (version, cpu, dev, libc, optional,
// os), so a later `npm install` leaves the file byte for byte as it is.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = process.argv[2] ?? new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'sunos', 'aix'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'riscv64', 'ppc64', 's390x', 'loong64', 'wasm32'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.find((part) => CPU.includes(part));
  const libc = parts.some((part) => part.startsWith('musl'))
    ? 'musl'
    : parts.some((part) => part === 'gnu' || part.startsWith('gnueabi'))
      ? 'glibc'
      : undefined;
  return { os, cpu, libc };
}

/** A foreign-platform entry, its keys in npm's order. */
function foreignEntry({ version, cpu, dev, libc, os }) {
  return { version, cpu, dev, libc, optional: true, os };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const nested = `${path}/node_modules/${name}`;
    if (lock.packages[key] || lock.packages[nested]) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!cpu && !os) continue; // not a platform package: leave it to npm
    lock.packages[key] = foreignEntry({
      version: range.replace(/^[\^~=]/, ''),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(os ? { os: [os] } : {}),
      ...(libc ? { libc: [libc] } : {}),
      ...(entry.dev ? { dev: true } : {}),
    });
    added += 1;
  }
}
// Entries recorded by earlier versions of this script get npm's order too.
for (const [path, entry] of Object.entries(lock.packages)) {
  if (entry.optional && !entry.resolved && !entry.integrity)
    lock.packages[path] = foreignEntry(entry);
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) =>
    a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
  ),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-foreign-platforms: recorded ${added} optional package(s) of other platforms.`);
