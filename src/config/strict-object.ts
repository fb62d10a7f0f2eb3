import * as z from 'zod';

/** An object that refuses unknown keys and names the keys it accepts. */
export function strict<T extends z.ZodRawShape>(shape: T) {
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown key; allowed keys here: ${allowed}` : undefined),
  });
}
