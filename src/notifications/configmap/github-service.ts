/**
 * What `services.NewGitHubService` checks when the engine builds a github service: the app and installation ids
 * (read with spf13/cast's ToInt64E where the option is untyped) and the private key, which ghinstallation parses.
 * The key itself lives in the notifications Secret; a `$key` reference is taken as a key the Secret holds.
 */
import { fieldOf, type GoType } from './go-unmarshal';
import { isRecord } from '../../is-record';

/** cast.ToInt64E of a string: strconv.ParseInt(s, 0, 0) after trimming a zero decimal part (`12.0`). */
const CAST_INT =
  /^[+-]?(?:0[xX][0-9a-fA-F](?:_?[0-9a-fA-F])*|0[oO]?[0-7](?:_?[0-7])*|0[bB][01](?:_?[01])*|[1-9](?:_?\d)*|0)(?:\.0*)?$/;

export function githubServiceProblem(options: unknown, type: GoType): string | undefined {
  const values = isRecord(options) ? options : {};
  for (const field of ['appID', 'installationID']) {
    if (type.fields?.[field]?.kind !== 'any') continue;
    const value = fieldOf(values, field);
    if (value === undefined || value === null || typeof value === 'number' || typeof value === 'boolean') continue;
    if (typeof value !== 'string' || !CAST_INT.test(value))
      return `${field}: unable to cast ${JSON.stringify(value)} of type ${typeof value} to int64`;
  }
  const key = fieldOf(values, 'privateKey');
  if (typeof key !== 'string' || key.trim() === '')
    return (
      'privateKey: could not parse private key: Invalid Key: Key must be a PEM encoded PKCS1 or PKCS8 key ' +
      '(write $<key> and put the key in the notifications Secret)'
    );
  if (!/\$[\w-]+/.test(key) && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key))
    return 'privateKey: could not parse private key: Invalid Key: Key must be a PEM encoded PKCS1 or PKCS8 key';
  return undefined;
}
