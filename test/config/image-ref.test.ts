import { describe, expect, it } from 'vitest';
import { parseImageRef, pinnedImageProblem } from '../../src/config/image-ref';

const HEX64 = '0123456789abcdef'.repeat(4);

describe('image references as the kubelet reads them (docker/distribution/reference v2.8.2)', () => {
  it.each([
    ['kubectl@md5:' + 'a'.repeat(32), 'unsupported algorithm "md5"'],
    ['kubectl@sha256:' + HEX64.slice(1), 'sha256 digest of 63 hex digits; it has 64'],
    ['kubectl@sha256:' + HEX64 + 'a', 'sha256 digest of 65 hex digits; it has 64'],
    ['kubectl@sha512:' + HEX64, 'sha512 digest of 64 hex digits; it has 128'],
    ['kubectl@sha256:' + HEX64.toUpperCase(), 'uppercase hex digits in its digest'],
    ['[::1]:5000/kubectl:1', 'is not an image reference'],
    [HEX64, 'is an image ID'],
    ['x'.repeat(238) + ':1', 'name of 256 characters as the kubelet reads it'],
  ])('refuses %j, which the kubelet refuses (InvalidImageName)', (image, why) => {
    expect(parseImageRef(image)).toBeUndefined();
    expect(pinnedImageProblem(image)).toContain(why);
  });

  it('counts the 255-character limit on the name, not on the whole reference', () => {
    const image = `r.io/${'x'.repeat(200)}:${'t'.repeat(128)}`;
    expect(parseImageRef(image)).toEqual({
      name: `r.io/${'x'.repeat(200)}`,
      normalizedName: `r.io/${'x'.repeat(200)}`,
      tag: 't'.repeat(128),
    });
  });

  it('normalizes short names as the kubelet does', () => {
    expect(parseImageRef('kubectl:1')?.normalizedName).toBe('docker.io/library/kubectl');
    expect(parseImageRef('index.docker.io/team/kubectl:1')?.normalizedName).toBe('docker.io/team/kubectl');
  });
});
