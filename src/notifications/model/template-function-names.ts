/**
 * The functions a notifications engine's templates may call: text/template's builtins and sprig's. The parser
 * (go-template-parse.ts) refuses any other name, as the engine does; go-template.ts executes a subset of them.
 */

/** text/template's builtins (text/template/funcs.go). */
const BUILTINS = [
  'and',
  'call',
  'html',
  'index',
  'slice',
  'js',
  'len',
  'not',
  'or',
  'print',
  'printf',
  'println',
  'urlquery',
  'eq',
  'ge',
  'gt',
  'le',
  'lt',
  'ne',
];

/**
 * sprig v3's `genericMap` (Masterminds/sprig functions.go), without `env` and `expandenv`, which the engine
 * deletes. Older engines have fewer (sprig v2): src/notifications/configmap/engine-schemas.json lists what each
 * one lacks.
 */
const ENGINE_FUNCTIONS =
  `hello ago date date_in_zone date_modify dateInZone dateModify duration durationRound htmlDate htmlDateInZone
must_date_modify mustDateModify mustToDate now toDate unixEpoch abbrev abbrevboth trunc trim upper lower title
untitle substr repeat trimall trimAll trimSuffix trimPrefix nospace initials randAlphaNum randAlpha randAscii
randNumeric swapcase shuffle snakecase camelcase kebabcase wrap wrapWith contains hasPrefix hasSuffix quote squote
cat indent nindent replace plural sha1sum sha256sum adler32sum toString atoi int64 int float64 seq toDecimal split
splitList splitn toStrings until untilStep add1 add sub div mod mul randInt add1f addf subf divf mulf biggest max
min maxf minf ceil floor round join sortAlpha default empty coalesce all any compact mustCompact fromJson toJson
toPrettyJson toRawJson mustFromJson mustToJson mustToPrettyJson mustToRawJson ternary deepCopy mustDeepCopy typeOf
typeIs typeIsLike kindOf kindIs deepEqual getHostByName base dir clean ext isAbs osBase osClean osDir osExt osIsAbs
b64enc b64dec b32enc b32dec tuple list dict get set unset hasKey pluck keys pick omit merge mergeOverwrite mustMerge
mustMergeOverwrite values append push mustAppend mustPush prepend mustPrepend first mustFirst rest mustRest last
mustLast initial mustInitial reverse mustReverse uniq mustUniq without mustWithout has mustHas slice mustSlice
concat dig chunk mustChunk bcrypt htpasswd genPrivateKey derivePassword buildCustomCert genCA genCAWithKey
genSelfSignedCert genSelfSignedCertWithKey genSignedCert genSignedCertWithKey encryptAES decryptAES randBytes uuidv4
semver semverCompare fail regexMatch mustRegexMatch regexFindAll mustRegexFindAll regexFind mustRegexFind
regexReplaceAll mustRegexReplaceAll regexReplaceAllLiteral mustRegexReplaceAllLiteral regexSplit mustRegexSplit
regexQuoteMeta urlParse urlJoin`.split(/\s+/);

export const TEMPLATE_FUNCTION_NAMES: ReadonlySet<string> = new Set([...BUILTINS, ...ENGINE_FUNCTIONS]);
