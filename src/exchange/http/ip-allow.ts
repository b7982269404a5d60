/**
 * A key's ipRestrictions: addresses or CIDR blocks, IPv4 or IPv6. An IPv4 caller seen through an
 * IPv6 socket (::ffff:10.0.0.1) is matched as the IPv4 address it is.
 */
import { BlockList, isIP } from 'node:net';

export type IpAllowList = (ip: string) => boolean;

/** Returns the reason an entry is not an address or CIDR block, or undefined when it is one. */
export function ipRuleProblem(rule: string): string | undefined {
  const [addr = '', prefix, ...rest] = rule.trim().split('/');
  const family = isIP(addr);
  if (family === 0 || rest.length > 0) return `"${rule}" is not an IP address or CIDR block`;
  if (prefix !== undefined) {
    const max = family === 4 ? 32 : 128;
    if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) {
      return `"${rule}" has a prefix length outside 0..${max}`;
    }
  }
  return undefined;
}

export function compileAllowList(rules: readonly string[]): IpAllowList {
  const list = new BlockList();
  for (const rule of rules) {
    const [raw = '', prefix] = rule.trim().split('/');
    const mapped = unmapV4(raw);
    const family = isIP(mapped);
    if (family === 0) continue;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      list.addAddress(mapped, type);
    } else {
      // A ::ffff:a.b.c.d/n block of the mapped range becomes a.b.c.d/(n - 96).
      let bits = Number(prefix);
      if (mapped !== raw) bits = Math.max(0, bits - 96);
      list.addSubnet(mapped, bits, type);
    }
  }
  return (ip: string) => {
    const addr = unmapV4(ip);
    const family = isIP(addr);
    if (family === 0) return false;
    return list.check(addr, family === 4 ? 'ipv4' : 'ipv6');
  };
}

function unmapV4(ip: string): string {
  const m = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return m?.[1] ?? ip;
}
