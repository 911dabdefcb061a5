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
