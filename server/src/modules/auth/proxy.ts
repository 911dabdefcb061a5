import net from 'node:net';

/** Strips the IPv4-mapped IPv6 prefix so `::ffff:127.0.0.1` matches `127.0.0.1`. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/** True when `ip` is one of the trusted proxy addresses or inside one of the CIDR blocks. */
export function isTrustedProxy(ip: string, trusted: string[]): boolean {
  const address = plainAddress(ip);
  for (const entry of trusted) {
    if (!entry.includes('/')) {
      if (plainAddress(entry) === address) return true;
      continue;
    }
    const [base, bitsText] = entry.split('/');
    const bits = Number(bitsText);
    const family = net.isIPv4(base!) ? 'ipv4' : 'ipv6';
    if (!Number.isInteger(bits) || net.isIP(address) === 0) continue;
    const list = new net.BlockList();
    try {
      list.addSubnet(base!, bits, family);
    } catch {
      continue;
    }
    if (list.check(address, net.isIPv4(address) ? 'ipv4' : 'ipv6')) return true;
  }
  return false;
}

/** An `X-Forwarded-For` entry as a bare address (some proxies add a port), or undefined. */
function hopAddress(hop: string | undefined): string | undefined {
  if (hop === undefined) return undefined;
  if (net.isIP(hop) !== 0) return hop;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed && net.isIPv6(bracketed[1]!)) return bracketed[1];
  const withPort = /^([\d.]+):\d+$/.exec(hop);
  if (withPort && net.isIPv4(withPort[1]!)) return withPort[1];
  return undefined;
}

/**
 * The address a request came from. `X-Forwarded-For` counts only when the direct peer is a
 * trusted proxy: its entries are read from the right, past every trusted proxy, and the first
 * untrusted one is the client. What a client writes itself sits to the left of what its proxies
 * appended, so it cannot choose its own address; a direct client's header is ignored.
 */
export function clientAddress(peer: string, forwardedFor: string | string[] | undefined, trusted: string[]): string {
  let current = plainAddress(peer);
  if (trusted.length === 0 || forwardedFor === undefined) return current;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  while (isTrustedProxy(current, trusted)) {
    const hop = hopAddress(hops.pop());
    // A trusted proxy that names nothing usable leaves the proxy itself as the client.
    if (hop === undefined) break;
    current = plainAddress(hop);
  }
  return current;
}
