/**
 * Address ranges of a project's network restrictions: checked when stored (an IPv4 range in the IPv4 list, an IPv6
 * one in the IPv6 list) and matched at the Postgres port's start-up with Node's BlockList.
 */
import net from 'node:net'

/** `a.b.c.d/n` or `x::y/n` of the family, in canonical form; undefined when it is not one. */
export function parseCidr(text: string, family: 'v4' | 'v6'): string | undefined {
  const m = /^([^/\s]+)\/(\d{1,3})$/.exec(text.trim())
  if (!m) return undefined
  const [, address, bits] = m
  const prefix = Number(bits)
  if (family === 'v4' ? !net.isIPv4(address) || prefix > 32 : !net.isIPv6(address) || prefix > 128) return undefined
  const ip = family === 'v4' ? address : new net.SocketAddress({ address, family: 'ipv6' }).address
  return `${ip}/${prefix}`
}

/**
 * Whether a client at `remote` may connect: with no restrictions stored, every address may; otherwise the address
 * must fall in a range of its family's list (an IPv4 client reaching an IPv6 socket arrives as ::ffff:a.b.c.d and
 * counts as IPv4).
 */
export function addressAllowed(remote: string | undefined, v4: string[] | null, v6: string[] | null): boolean {
  if (v4 === null && v6 === null) return true
  if (!remote) return false
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote)
  const address = mapped ? mapped[1] : remote
  const family = net.isIPv4(address) ? 'ipv4' : 'ipv6'
  const list = new net.BlockList()
  for (const cidr of (family === 'ipv4' ? v4 : v6) ?? []) {
    const [ip, bits] = cidr.split('/')
    list.addSubnet(ip, Number(bits), family)
  }
  return list.check(address, family)
}
