/**
 * Which expr library (module and version) and which sprig each engine release builds its notifications with,
 * read from each release's go.mod through the Go module proxy (`go list -m -json <module>@<release>`):
 * the notifications-engine version there tells the import path (antonmedv/expr before v0.5.0's switch,
 * expr-lang/expr after), and the release's own go.mod gives the version Go's minimal version selection picks.
 *
 * One row per run of releases with the same pins: `from` is the first release read with them, `read` every
 * release whose go.mod was read. A release between two rows takes the earlier row. docs/engine-versions.md is
 * generated from this table, and `npm run judge:expr` builds every expr and sprig version in it.
 */

export type Engine = 'argo-rollouts' | 'argo-cd';
export type ExprModule = 'github.com/antonmedv/expr' | 'github.com/expr-lang/expr';

export interface EngineRelease {
  readonly engine: Engine;
  readonly from: string;
  readonly read: readonly string[];
  /** github.com/argoproj/notifications-engine versions in these releases' go.mod. */
  readonly notificationsEngine: readonly string[];
  readonly expr: { readonly module: ExprModule; readonly version: string };
  /** github.com/Masterminds/sprig/v3, the template functions. */
  readonly sprig: string;
  /** The variables expressions and templates see (utils/record/record.go in Rollouts, util/notification in Argo CD). */
  readonly vars: readonly string[];
  /**
   * The engine runs `oncePer` even where `when` is false (notifications-engine before its 2023-10 pseudo-versions,
   * pkg/triggers/service.go): an error there sends nothing, but is logged at every reconcile.
   */
  readonly oncePerAlways: boolean;
}

export const ENGINE_NAMES: Readonly<Record<Engine, string>> = {
  'argo-rollouts': 'Argo Rollouts',
  'argo-cd': 'Argo CD',
};

const ANTONMEDV: ExprModule = 'github.com/antonmedv/expr';
const EXPR_LANG: ExprModule = 'github.com/expr-lang/expr';
const ROLLOUTS_1_6_VARS = ['rollout', 'time'];
const ROLLOUTS_VARS = ['rollout', 'time', 'secrets', 'analysisRuns'];
const ARGOCD_VARS = ['app', 'context', 'time', 'strings', 'repo'];

export const ENGINE_RELEASES: readonly EngineRelease[] = [
  {
    engine: 'argo-rollouts',
    from: '1.6.0',
    read: ['1.6.0'],
    notificationsEngine: ['v0.4.1-0.20230712163936-39dfcb66f902'],
    expr: { module: ANTONMEDV, version: '1.13.0' },
    sprig: '3.2.3',
    vars: ROLLOUTS_1_6_VARS,
    oncePerAlways: true,
  },
  {
    engine: 'argo-rollouts',
    from: '1.6.2',
    read: ['1.6.2', '1.6.4', '1.6.5', '1.6.6'],
    notificationsEngine: ['v0.4.1-0.20231011160156-2d2d1a75dbee'],
    expr: { module: ANTONMEDV, version: '1.15.3' },
    sprig: '3.2.3',
    vars: ROLLOUTS_VARS,
    oncePerAlways: true,
  },
  {
    engine: 'argo-rollouts',
    from: '1.7.0',
    read: ['1.7.0', '1.7.1', '1.7.2', '1.8.0', '1.8.2', '1.8.3', '1.8.4', '1.8.5'],
    notificationsEngine: ['v0.4.1-0.20240219110818-7a069766e954'],
    expr: { module: ANTONMEDV, version: '1.15.5' },
    sprig: '3.2.3',
    vars: ROLLOUTS_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-rollouts',
    from: '1.9.0',
    read: ['1.9.0', '1.9.1', '1.9.2', '1.9.3'],
    notificationsEngine: ['v0.5.0'],
    expr: { module: EXPR_LANG, version: '1.16.9' },
    sprig: '3.3.0',
    vars: ROLLOUTS_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-rollouts',
    from: '1.10.0',
    read: ['1.10.0', '1.10.2'],
    notificationsEngine: ['v0.5.1-0.20260503100631-0cff13b8a717'],
    expr: { module: EXPR_LANG, version: '1.17.7' },
    sprig: '3.3.0',
    vars: ROLLOUTS_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '2.6.1',
    read: ['2.6.1', '2.6.2', '2.6.3', '2.6.7'],
    notificationsEngine: ['v0.3.1-0.20221203221941-490d98afd1d6'],
    expr: { module: ANTONMEDV, version: '1.9.0' },
    sprig: '3.2.2',
    vars: ARGOCD_VARS,
    oncePerAlways: true,
  },
  {
    engine: 'argo-cd',
    from: '2.6.10',
    read: ['2.6.10', '2.6.15', '2.7.1', '2.7.2', '2.7.6', '2.7.9', '2.7.10', '2.7.15'],
    notificationsEngine: ['v0.4.1-0.20230228182525-f754726f03da'],
    expr: { module: ANTONMEDV, version: '1.9.0' },
    sprig: '3.2.3',
    vars: ARGOCD_VARS,
    oncePerAlways: true,
  },
  {
    engine: 'argo-cd',
    from: '2.8.0',
    read: ['2.8.0', '2.8.2', '2.8.3', '2.8.4', '2.8.8', '2.8.16', '2.8.17', '2.8.19'],
    notificationsEngine: ['v0.4.1-0.20230620204159-3446d4ae8520'],
    expr: { module: ANTONMEDV, version: '1.12.5' },
    sprig: '3.2.3',
    vars: ARGOCD_VARS,
    oncePerAlways: true,
  },
  {
    engine: 'argo-cd',
    from: '2.9.0',
    read: ['2.9.0', '2.9.5', '2.9.15', '2.9.21'],
    notificationsEngine: ['v0.4.1-0.20230905144632-9dcecdc3eebf'],
    expr: { module: ANTONMEDV, version: '1.15.2' },
    sprig: '3.2.3',
    vars: ARGOCD_VARS,
    oncePerAlways: true,
  },
  {
    engine: 'argo-cd',
    from: '2.10.0',
    read: ['2.10.0', '2.10.1', '2.10.5', '2.11.0', '2.12.0', '2.12.1', '2.12.10'],
    notificationsEngine: [
      'v0.4.1-0.20231027194313-a8d185ecc0a9',
      'v0.4.1-0.20240126143042-84b9f7913604',
      'v0.4.1-0.20240403133627-f48567108f01',
      'v0.4.1-0.20240606074338-0802cd427621',
    ],
    expr: { module: ANTONMEDV, version: '1.15.2' },
    sprig: '3.2.3',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    // These go.mod files also require expr-lang/expr, for Argo CD's own code; the notifications engine still imports
    // antonmedv/expr.
    engine: 'argo-cd',
    from: '2.13.0',
    read: ['2.13.0', '2.13.1', '2.13.5', '2.14.0', '2.14.1', '2.14.5', '2.14.10', '2.14.15', '2.14.20', '2.14.21'],
    notificationsEngine: ['v0.4.1-0.20240606074338-0802cd427621', 'v0.4.1-0.20241007194503-2fef5c9049fd'],
    expr: { module: ANTONMEDV, version: '1.15.1' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.0.0',
    read: ['3.0.0', '3.0.20'],
    notificationsEngine: ['v0.4.1-0.20250309174002-87bf0576a872'],
    expr: { module: EXPR_LANG, version: '1.16.9' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.0.23',
    read: ['3.0.23'],
    notificationsEngine: ['v0.4.1-0.20250309174002-87bf0576a872'],
    expr: { module: EXPR_LANG, version: '1.17.7' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.1.0',
    read: ['3.1.0', '3.1.1', '3.1.2', '3.1.3', '3.1.4', '3.1.5', '3.1.6', '3.1.7', '3.1.8', '3.1.9', '3.1.10'],
    notificationsEngine: ['v0.4.1-0.20250309174002-87bf0576a872'],
    expr: { module: EXPR_LANG, version: '1.17.5' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.1.11',
    read: ['3.1.11', '3.1.12', '3.1.13', '3.1.14', '3.1.15', '3.1.16'],
    notificationsEngine: ['v0.4.1-0.20250309174002-87bf0576a872'],
    expr: { module: EXPR_LANG, version: '1.17.7' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.2.0',
    read: ['3.2.0', '3.2.1', '3.2.2', '3.2.3'],
    notificationsEngine: ['v0.4.1-0.20250908182349-da04400446ff'],
    expr: { module: EXPR_LANG, version: '1.17.6' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.2.4',
    read: ['3.2.4', '3.2.5'],
    notificationsEngine: ['v0.5.1-0.20251223091026-8c0c96d8d530'],
    expr: { module: EXPR_LANG, version: '1.17.7' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.2.6',
    read: ['3.2.6', '3.2.7', '3.2.8'],
    notificationsEngine: ['v0.5.1-0.20260119155007-a23b5827d630'],
    expr: { module: EXPR_LANG, version: '1.17.7' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.2.9',
    read: ['3.2.9', '3.2.10', '3.2.11', '3.2.12'],
    notificationsEngine: ['v0.5.1-0.20260316232552-d27ba0152c1c'],
    expr: { module: EXPR_LANG, version: '1.17.7' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.3.0',
    read: ['3.3.0', '3.3.6'],
    notificationsEngine: ['v0.5.1-0.20260119155007-a23b5827d630'],
    expr: { module: EXPR_LANG, version: '1.17.7' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.3.7',
    read: ['3.3.7', '3.3.14', '3.3.19'],
    notificationsEngine: ['v0.5.1-0.20260316232552-d27ba0152c1c'],
    expr: { module: EXPR_LANG, version: '1.17.7' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.4.0',
    read: ['3.4.0', '3.4.13'],
    notificationsEngine: ['v0.5.1-0.20260213231747-1dbe3de712f8'],
    expr: { module: EXPR_LANG, version: '1.17.8' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
  {
    engine: 'argo-cd',
    from: '3.5.0',
    read: ['3.5.0', '3.5.7'],
    notificationsEngine: ['v0.5.1-0.20260503100631-0cff13b8a717'],
    expr: { module: EXPR_LANG, version: '1.17.8' },
    sprig: '3.3.0',
    vars: ARGOCD_VARS,
    oncePerAlways: false,
  },
];
