import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProgram, portMemberCallers, type PortMember } from './port-callers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PORT_FILE = 'server/usage/store/usage-store.ts';

let port: PortMember[];
let fixtures: PortMember[];

beforeAll(() => {
  const program = loadProgram(ROOT);
  port = portMemberCallers(program, ROOT, PORT_FILE, 'UsageStore');
  fixtures = portMemberCallers(program, ROOT, PORT_FILE, 'StoreFixtures');
}, 240_000);

describe("the usage store's port (UsageStore and the stores it hands out)", () => {
  it('has no member that only tests or tooling read', () => {
    const testOnly = port
      .filter((member) => member.callers.product.length === 0)
      .map((member) => ({ member: member.name, ...member.callers }));
    expect(testOnly).toEqual([]);
  });

  it('is the whole port: every concern, down to the snapshot a read opens', () => {
    const interfaces = new Set(port.map((member) => member.name.split('.')[0]));
    for (const concern of [
      'UsageStore',
      'FactReads',
      'FactSnapshot',
      'BillingWrites',
      'CatalogStore',
      'KeyStore',
      'UsageLimitStore',
      'ScopedLimitStore',
      'Seeder',
    ]) {
      expect(interfaces).toContain(concern);
    }
    expect(interfaces).not.toContain('StoreFixtures');
  });

  // The same count on the writes tests arrange data with, which sit beside the port on purpose:
  // the analysis must see them as test-only, or it could not see such a member in the port.
  it('tells a test-only member apart: every fixture write is read by tests, none by the product', () => {
    expect(fixtures.length).toBeGreaterThan(0);
    for (const member of fixtures) {
      expect(member.callers.test, member.name).not.toEqual([]);
      expect(member.callers.product, member.name).toEqual([]);
    }
  });
});
