import { BlockList, isIP } from 'node:net';

/**
 * What an IP address reaches, for the webhook rules: only `public` is open by default; `metadata`
 * (the cloud instance-credential endpoints) is never open.
 */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'metadata';

type Range = [address: string, prefix: number];

const RANGES: [AddressClass, ipv4: Range[], ipv6: Range[]][] = [
  // Checked first: these sit inside the link-local and ULA ranges below.
  ['metadata', [['169.254.169.254', 32]], [['fd00:ec2::254', 128]]],
  ['unspecified', [['0.0.0.0', 8]], [['::', 128]]],
  ['loopback', [['127.0.0.0', 8]], [['::1', 128]]],
  [
    'private',
    [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
      // Carrier-grade NAT, often the address space of a cluster or VPC network.
      ['100.64.0.0', 10],
      ['198.18.0.0', 15],
    ],
    [
      ['fc00::', 7],
      ['fec0::', 10],
      // Local-use NAT64 prefix: its addresses lead into whatever network the gateway serves.
      ['64:ff9b:1::', 48],
    ],
  ],
  ['link-local', [['169.254.0.0', 16]], [['fe80::', 10]]],
  ['multicast', [['224.0.0.0', 4]], [['ff00::', 8]]],
  [
    'reserved',
    [
      ['192.0.0.0', 24],
      ['192.0.2.0', 24],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
      ['240.0.0.0', 4],
    ],
    [
      // IPv4-compatible addresses (deprecated), the discard prefix and documentation.
      ['::', 96],
      ['100::', 64],
      ['2001:db8::', 32],
    ],
  ],
];

const LISTS = RANGES.map(([addressClass, ipv4, ipv6]) => {
  const list = new BlockList();
  ipv4.forEach(([address, prefix]) => list.addSubnet(address, prefix, 'ipv4'));
  ipv6.forEach(([address, prefix]) => list.addSubnet(address, prefix, 'ipv6'));
  return [addressClass, list] as const;
});

/**
 * The IPv4 address an IPv6 one carries and routes to (NAT64 `64:ff9b::/96`, 6to4 `2002::/16`),
 * or null. IPv4-mapped ones (`::ffff:a.b.c.d`) need no unwrapping: BlockList matches them
 * against the IPv4 ranges.
 */
function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const nat64 =
    groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (nat64) return ipv4Of(groups[6] ?? 0, groups[7] ?? 0);
  if (groups[0] === 0x2002) return ipv4Of(groups[1] ?? 0, groups[2] ?? 0);
  return null;
}

const ipv4Of = (high: number, low: number) =>
  [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/** The eight 16-bit groups of an IPv6 address (with `::` and a dotted IPv4 tail expanded). */
function expandIpv6(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const missing = 8 - front.length - back.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...front, ...Array<number>(missing).fill(0), ...back];
}

/**
 * The class of an IP address (v4, or v6 without brackets); `null` when `address` is not one.
 * An IPv6 address carrying an IPv4 one is classed by the IPv4 address it leads to.
 */
export function classifyAddress(address: string): AddressClass | null {
  const family = isIP(address);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const found = LISTS.find(([, list]) => list.check(address, type));
  if (found) return found[0];
  const carried = family === 6 ? embeddedIpv4(address) : null;
  return carried ? classifyAddress(carried) : 'public';
}
