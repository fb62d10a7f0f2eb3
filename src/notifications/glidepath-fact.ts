/** What every Glidepath fact shares, whichever controller sends it: the schema, and how releases are marked. */

export const FACT_SCHEMA = 'glidepath.fact/v1';
/** Annotation that names the release a Rollout or Application carries. */
export const RELEASE_ID_ANNOTATION = 'hangar.io/release-id';
/** Label that subscribes a Rollout or Application to Glidepath's facts (value `true`). */
export const RELEASE_TRACKED_LABEL = 'hangar.io/release-tracked';
