/** Veridor base URLs for the differential test: hand-picked edge cases, then generated ones (fixed seed). */
import * as fc from 'fast-check';

export const SERVICE_URL_SEED = 20_261_202;

const HAND_PICKED = [
  'http://invoices.shop:8080',
  'https://invoices.shop.svc.cluster.local/health',
  'http://invoices.2024:8080',
  'http://invoices.0x1f:8080',
  'http://10.0.0.7:8080',
  'http://[::1]:8080',
  'http://[fe80::1%25eth0]:8080',
  'http://[fe80::1%eth0]:8080',
  'http://[fe80::1%25]:8080',
  'http://[::1',
  'http://[::1]x',
  'http://[zz]:80',
  'HTTP://invoices:8080',
  'Https://invoices',
  'http://a:',
  'http://a:0',
  'http://a:65535',
  'http://a:65536',
  'http://a:99999',
  'http://a:8a',
  'http://:80',
  'http://',
  'http:///x',
  'http:x',
  'ftp://a',
  'http://a b:80',
  'http://a\nb',
  'http://a\u00a0b',
  'http://a\ufeffb',
  'http://a/b c',
  'http://a\\b:80',
  'http://a%41:80',
  'http://a%c3%a9:80',
  'http://a%25:80',
  'http://a%zz:80',
  'http://a{b}:80',
  'http://a<b>:80',
  'http://a"b:80',
  'http://ä.example:80',
  'http://a:80/%zz',
  'http://a:80/%41',
  'http://a:80/?q=%zz',
  'http://a:80/#%zz',
  'http://a:80/#frag',
  'http://user:pw@a:80',
  'http://us%zzer@a',
  'http://us er@a',
  'http://u@v@a',
  'http://a?x',
  'http://a#x',
  'http://a/b?c#d',
  'http://a:b:80',
  'http://a::80',
  'http://a]b',
  'http://a[b',
  'http://x[::1]:80',
  'http://[1.2.3.4]:80',
  'http://[::ffff:1.2.3.4]:80',
];

const scheme = fc.constantFrom('http', 'https', 'HTTP', 'hTtPs', 'ftp', 'http:', '');
const separator = fc.constantFrom('://', '://', '://', ':/', ':', '//');
const hostChar = fc.constantFrom(
  ...'abcz09-._~!$&\'()*+,;=:[]<>"{}|\\^`%@/?#äé'.split(''),
  '%41',
  '%c3',
  '%25',
  '%zz',
  ' ',
);
const hostName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('invoices', 'invoices.shop', 'invoices.2024', '10.1.2.3', 'a') },
  { weight: 3, arbitrary: fc.array(hostChar, { minLength: 0, maxLength: 8 }).map((c) => c.join('')) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('::1', 'fe80::1%25eth0', 'fe80::1%eth0', '1.2.3.4', 'zz', '::ffff:1.2.3.4', '')
      .map((a) => `[${a}]`),
  },
);
const port = fc.constantFrom('', '', ':', ':80', ':8080', ':65535', ':65536', ':99999', ':8a', ':-1', ':080');
const userinfo = fc.constantFrom('', '', '', 'u@', 'u:p@', 'u%41@', 'u%zz@', 'u v@', 'u@v@', 'u/@');
const rest = fc.array(
  fc.constantFrom('/', '/x', '/%41', '/%zz', '/a b', '?q=1', '?%zz', '#f', '#%zz', '%', '\\', '{', 'é'),
  { maxLength: 3 },
);
const generated = fc
  .tuple(scheme, separator, userinfo, hostName, port, rest)
  .map(([s, sep, user, host, p, tail]) => `${s}${sep}${user}${host}${p}${tail.join('')}`);

export function serviceUrlInputs(count: number, seed = SERVICE_URL_SEED): string[] {
  const sampled = fc.sample(generated, { seed, numRuns: Math.max(0, count - HAND_PICKED.length) });
  return [...HAND_PICKED, ...sampled];
}
