/**
 * Fastify's trustProxy from TRUST_PROXY: the proxies' addresses as they are, or a hop count as
 * a function (Fastify 5.12 no longer takes a number). A hop count trusts whoever is that many
 * hops away, so it is only safe when the instances can be reached through the proxy alone.
 */
export function trustProxyOption(trust: number | string[]): false | string[] | ((address: string, hop: number) => boolean) {
  if (Array.isArray(trust)) return trust;
  if (trust === 0) return false;
  return (_address, hop) => hop < trust;
}
