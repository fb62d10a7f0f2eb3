/** Labels on every object this tool renders, so that a person can tell where an object comes from. */
export const COMMON_LABELS: Readonly<Record<string, string>> = {
  'app.kubernetes.io/managed-by': 'glidepath-gitops',
  'app.kubernetes.io/part-of': 'glidepath',
};
