/**
 * Whether a Veridor base URL is one the gate can fetch: Veridor parses it with Go's net/url and fetches it with
 * net/http, so this follows url.Parse, not the WHATWG URL parser (which refuses `http://invoices.2024:8080`, a
 * Service in the namespace `2024`, and an IPv6 zone, and takes `\` for `/`, which Go refuses).
 */

/** What Go's url.Parse allows unescaped in a host name (shouldEscape in host mode), and any non-ASCII character. */
const HOST_CHARACTER = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"\u0080-\u{10FFFF}]$/u;
/** What Go allows in the user information (validUserinfo). */
const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

/**
 * An http(s) URL with a host, whole, as url.Parse takes it; no whitespace or control character (a line break and
 * more text went into the steps), and a port of at most 65535 (net/http cannot dial more).
 */
export function isServiceUrl(text: string): boolean {
  if (/[\s\p{Cc}]/u.test(text)) return false;
  // url.Parse cuts the fragment, then the query, then the authority at the first "/".
  const parts = /^https?:\/\/([^/?#]*)([^?#]*)(?:\?[^#]*)?(?:#(.*))?$/is.exec(text);
  if (parts === null) return false;
  const [, authority = '', path = '', fragment = ''] = parts;
  if (!validEscapes(path) || !validEscapes(fragment)) return false;
  const at = authority.lastIndexOf('@');
  const userinfo = at === -1 ? '' : authority.slice(0, at);
  if (!USERINFO.test(userinfo) || !validEscapes(userinfo)) return false;
  const host = authority.slice(at + 1);
  // A "[" anywhere but first is an invalid IP-literal. The port follows the last ":" (Go 1.26 takes the first for http
  // only under GODEBUG urlstrictcolons=1, the default of modules that declare go 1.26).
  if (host.lastIndexOf('[') > 0) return false;
  const bracketed = /^\[([^\]]*)\](.*)$/s.exec(host);
  if (host.startsWith('[')) return bracketed !== null && isIpv6Literal(bracketed[1]!) && validPort(bracketed[2]!);
  const colon = host.lastIndexOf(':');
  const name = colon === -1 ? host : host.slice(0, colon);
  return name !== '' && validPort(colon === -1 ? '' : host.slice(colon)) && validHostName(name);
}

/** `:8080`, `:` or nothing (url.Parse's validOptionalPort), and a port net/http can dial. */
function validPort(text: string): boolean {
  return /^(?::\d*)?$/.test(text) && (text.length <= 1 || Number(text.slice(1)) <= 65535);
}

/** Every `%` starts an escape of two hex digits. */
function validEscapes(text: string): boolean {
  return !/%(?![0-9A-Fa-f]{2})/.test(text);
}

/** In a host, url.Parse takes `%XX` only for a byte of a UTF-8 sequence (80 to FF), and `%25`. */
function validHostName(name: string): boolean {
  if (!validEscapes(name) || /%(?!25)[0-7][0-9A-Fa-f]/.test(name)) return false;
  return [...name.replace(/%[0-9A-Fa-f]{2}/g, '')].every((c) => HOST_CHARACTER.test(c));
}

/** An IPv6 address, with a zone (`fe80::1%25eth0`) as url.Parse takes it. */
function isIpv6Literal(text: string): boolean {
  const zone = text.indexOf('%25');
  const address = zone === -1 ? text : text.slice(0, zone);
  if (zone !== -1 && (text.length === zone + 3 || !validEscapes(text.slice(zone)))) return false;
  try {
    return new URL(`http://[${address}]/`).hostname !== '';
  } catch {
    return false;
  }
}
