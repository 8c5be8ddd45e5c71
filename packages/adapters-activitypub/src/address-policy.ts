import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * Which addresses federation may connect to (docs/decisions/0111): global unicast only.
 *
 * The rule is an allow-list, not a list of bad ranges: an IPv4 address must be what ipaddr.js calls
 * `unicast` (not loopback, private, carrier-grade NAT, link-local, multicast, broadcast, unspecified,
 * benchmarking, documentation or reserved), an IPv6 address must be `unicast` and inside 2000::/3.
 * An IPv4-mapped IPv6 address (::ffff:a.b.c.d) reaches its IPv4 address, so it is judged as that
 * address. Every other embedding of IPv4 in IPv6 (IPv4-compatible ::/96, IPv4-translated
 * ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32) goes
 * through a translator or relay whose far side we cannot judge: refused whatever it embeds.
 *
 * Addresses are normalised before they are judged: IPv6 text by the WHATWG URL parser (the one that
 * rewrote `::ffff:127.0.0.1` to `::ffff:7f00:1` under the old guard), so `::127.0.0.1` is read as the
 * IPv4-compatible address the kernel would use, not as the mapped one ipaddr.js's parser makes of it.
 * URL hosts reach here already normalised (decimal, octal, hexadecimal and short IPv4 become dotted).
 */

/** Why `address` may not be connected to (its range, e.g. `loopback`, `ipv4Mapped:private`), or null when it may. */
export function refusalOf(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return ipv4Refusal(ipaddr.IPv4.parse(bare));
  if (family !== 6) return 'not_an_address';
  let parsed: ipaddr.IPv6;
  try {
    // The URL parser is the normaliser (zone ids such as fe80::1%eth0 do not survive it: refused).
    parsed = ipaddr.IPv6.parse(new URL(`http://[${bare}]/`).hostname.slice(1, -1));
  } catch {
    return 'not_an_address';
  }
  const range = parsed.range();
  if (range === 'ipv4Mapped') {
    const inner = ipv4Refusal(parsed.toIPv4Address());
    return inner === null ? null : `ipv4Mapped:${inner}`;
  }
  if (range !== 'unicast') return range;
  // ipaddr.js calls ::/96 (IPv4-compatible) and other unassigned space `unicast`: only 2000::/3 is global.
  if (!parsed.match(GLOBAL_UNICAST)) return 'not_global_unicast';
  return null;
}

/** Whether federation must not connect to `address` (anything that is not a global unicast address). */
export function isNonPublicAddress(address: string): boolean {
  return refusalOf(address) !== null;
}

const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

function ipv4Refusal(address: ipaddr.IPv4): string | null {
  const range = address.range();
  return range === 'unicast' ? null : range;
}
