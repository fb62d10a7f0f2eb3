/** Image references for the differential test: hand-picked edge cases, then generated ones (fixed seed). */
import * as fc from 'fast-check';

const HEX = '0123456789abcdef';

export const IMAGE_REF_SEED = 20_261_202;

const hex = (length: number, digit = 'a') => digit.repeat(length);
const HEX64 = '0123456789abcdef'.repeat(4);

const HAND_PICKED = [
  'nginx',
  'nginx:1.25',
  'nginx:latest',
  'library/nginx:1',
  'docker.io/nginx:1',
  'docker.io/library/nginx:1',
  'index.docker.io/nginx:1',
  'index.docker.io/team/app:1',
  'registry.k8s.io/kubectl:v1.28.15',
  'bitnami/kubectl:1.28.15',
  'localhost/app:1',
  'localhost:5000/app:1',
  'LOCALHOST/app:1',
  'localhost',
  'localhost:5000',
  'my-host/app:1',
  'my_host.com/app:1',
  'registry.example.com:443/team/app:1',
  'Registry.Example.COM/team/app:1',
  'registry.example.com/Team/app:1',
  'NGINX:1',
  'nginx:TAG',
  'nginx:1.2@sha256:' + HEX64,
  'nginx@sha256:' + HEX64,
  'nginx@sha256:' + HEX64.toUpperCase(),
  'nginx@SHA256:' + HEX64,
  'nginx@sha256:' + HEX64.slice(1),
  'nginx@sha256:' + HEX64 + 'a',
  'nginx@sha384:' + hex(96),
  'nginx@sha384:' + hex(64),
  'nginx@sha512:' + hex(128),
  'nginx@sha512:' + hex(127),
  'nginx@md5:' + hex(32),
  'nginx@sha1:' + hex(40),
  'nginx@sha256:' + hex(31),
  'nginx@sha256+b64:' + hex(64),
  'nginx@sha256.x:' + hex(64),
  'nginx@blake3:' + hex(64),
  'nginx@sha256:' + hex(63) + 'g',
  'nginx@sha256:',
  'nginx@',
  'nginx:',
  ':1',
  '@sha256:' + HEX64,
  HEX64,
  HEX64 + ':1',
  'a' + HEX64,
  HEX64.toUpperCase(),
  'sha256:' + HEX64,
  '[::1]:5000/app:1',
  '[fe80::1]/app:1',
  '127.0.0.1:5000/app:1',
  '192.168.1.78/app:1',
  'host:port/app:1',
  '-registry.com/app:1',
  'registry-.com/app:1',
  'registry..com/app:1',
  'a/b/c/d/e/f:1',
  'a//b:1',
  '/app:1',
  'app/:1',
  'app:1/',
  'a__b:1',
  'a___b:1',
  'a--b:1',
  'a-_b:1',
  'a..b:1',
  'a._b:1',
  '_a:1',
  'a_:1',
  '.a:1',
  'a.:1',
  'a:-1',
  'a:.1',
  'a:_1',
  'a:1.-_x',
  'a:' + 't'.repeat(128),
  'a:' + 't'.repeat(129),
  'a:1:2',
  'a@b',
  'a b:1',
  ' nginx:1',
  'nginx:1 ',
  'nginx:1\n',
  'ngïnx:1',
  'nginx:1ï',
  '',
  'x'.repeat(237) + ':1',
  'x'.repeat(238) + ':1',
  'team/' + 'x'.repeat(245) + ':1',
  'team/' + 'x'.repeat(246) + ':1',
  'r.io/' + 'x'.repeat(250) + ':1',
  'r.io/' + 'x'.repeat(251) + ':1',
  'r.io/' + 'x'.repeat(200) + ':' + 't'.repeat(128),
  'r.io/' + 'x'.repeat(250) + '@sha256:' + HEX64,
  'index.docker.io/' + 'x'.repeat(237) + ':1',
];

const lower = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');
const pathChar = fc.oneof(
  { weight: 12, arbitrary: lower },
  { weight: 2, arbitrary: fc.constantFrom('.', '_', '-', '__') },
  { weight: 1, arbitrary: fc.constantFrom('A', 'Z', '/', ':', 'é') },
);
const component = fc.array(pathChar, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(''));
const longComponent = fc.integer({ min: 200, max: 270 }).map((n) => 'p'.repeat(n));
const path = fc
  .array(fc.oneof({ weight: 8, arbitrary: component }, { weight: 1, arbitrary: longComponent }), {
    minLength: 1,
    maxLength: 3,
  })
  .map((parts) => parts.join('/'));
const domain = fc.constantFrom(
  '',
  '',
  '',
  'docker.io/',
  'index.docker.io/',
  'localhost/',
  'localhost:5000/',
  'ghcr.io/',
  'registry.example.com/',
  'Registry.Example.com:8443/',
  'my-registry:5000/',
  'a.b/',
  'a-b.c-d/',
  '-a.b/',
  'a.b-/',
  '[::1]:5000/',
  '10.0.0.1:5000/',
  'registry:/',
  'registry:abc/',
  'reg_istry.io/',
);
const tagChar = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...'abcXYZ0189_') },
  { weight: 2, arbitrary: fc.constantFrom('.', '-') },
  { weight: 1, arbitrary: fc.constantFrom('+', '/', '@', ':', 'ü') },
);
const tag = fc.oneof(
  fc.array(tagChar, { minLength: 0, maxLength: 10 }).map((chars) => chars.join('')),
  fc.integer({ min: 125, max: 131 }).map((n) => 'v'.repeat(n)),
  fc.constantFrom('latest', 'v1.28.15', '1.28.15-debian-12-r3'),
);
const algorithm = fc.constantFrom(
  'sha256',
  'sha256',
  'sha384',
  'sha512',
  'md5',
  'SHA256',
  'Sha512',
  'sha256+b64',
  'a',
  'sha-256',
  '1sha',
);
const hexLength = fc.constantFrom(31, 32, 40, 63, 64, 64, 64, 65, 95, 96, 127, 128, 129);
const hexDigits = fc.constantFrom(
  '0123456789abcdef',
  '0123456789abcdef',
  '0123456789ABCDEF',
  'abcdefABCDEF',
  '0123456789abcdefg',
);
const digest = fc
  .tuple(algorithm, hexLength, hexDigits, fc.nat())
  .map(
    ([alg, length, digits, offset]) =>
      `${alg}:${Array.from({ length }, (_, i) => digits[(i * 7 + offset) % digits.length]).join('')}`,
  );
const reference = fc
  .tuple(domain, path, fc.option(tag, { freq: 3 }), fc.option(digest, { freq: 2 }))
  .map(([d, p, t, g]) => `${d}${p}${t === null ? '' : `:${t}`}${g === null ? '' : `@${g}`}`);
/** Well-formed parts, so that most of these are valid and the name, tag and digest the parsers return get compared. */
const alnum = fc.array(lower, { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''));
const separator = fc.constantFrom('.', '_', '__', '-', '--', '---');
const goodComponent = fc
  .tuple(alnum, fc.array(fc.tuple(separator, alnum), { maxLength: 2 }))
  .map(([first, rest]) => first + rest.map(([sep, part]) => sep + part).join(''));
const goodPath = fc.oneof(
  { weight: 8, arbitrary: fc.array(goodComponent, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')) },
  { weight: 1, arbitrary: fc.integer({ min: 225, max: 250 }).map((n) => 'n'.repeat(n)) },
);
const goodDomain = fc.constantFrom(
  '',
  '',
  'docker.io/',
  'index.docker.io/',
  'localhost/',
  'localhost:5000/',
  'ghcr.io/',
  'Registry.Example.com:8443/',
  'a-b.c-d/',
  '10.0.0.1:5000/',
);
const goodTag = fc.oneof(
  fc
    .tuple(fc.constantFrom(...'abcXYZ0189_'), fc.array(fc.constantFrom(...'abcXYZ0189_.-'), { maxLength: 10 }))
    .map(([first, rest]) => first + rest.join('')),
  fc.integer({ min: 126, max: 129 }).map((n) => 'v'.repeat(n)),
);
const goodDigest = fc
  .tuple(fc.constantFrom(['sha256', 64], ['sha384', 96], ['sha512', 128]), fc.nat())
  .map(
    ([[alg, length], offset]) =>
      `${alg}:${Array.from({ length: length as number }, (_, i) => HEX[(i * 5 + offset) % 16]).join('')}`,
  );
const wellFormed = fc
  .tuple(goodDomain, goodPath, fc.option(goodTag, { freq: 4 }), fc.option(goodDigest, { freq: 3 }))
  .map(([d, p, t, g]) => `${d}${p}${t === null ? '' : `:${t}`}${g === null ? '' : `@${g}`}`);
const noise = fc.string({ unit: 'grapheme-ascii', maxLength: 30 });

const generated = fc.oneof(
  { weight: 8, arbitrary: reference },
  { weight: 10, arbitrary: wellFormed },
  { weight: 1, arbitrary: noise },
);

export function imageRefInputs(count: number, seed = IMAGE_REF_SEED): string[] {
  const sampled = fc.sample(generated, { seed, numRuns: Math.max(0, count - HAND_PICKED.length) });
  return [...HAND_PICKED, ...sampled];
}
