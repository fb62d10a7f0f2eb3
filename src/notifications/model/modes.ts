/**
 * What differs between the engines that embed notifications-engine: the ConfigMap's name and the variables
 * expressions and templates see. Argo Rollouts 1.9: `rollout` (the unstructured object) and `time` with only
 * `Now` and `Parse`. Argo CD: `app`, `context`, `time` with its constants, `strings` and `repo`, and a rule that
 * skips an Application whose completed operation the controller has not refreshed yet.
 */
import { GoFunction, GoTime, type GoMap, type GoValue } from './values';
import { ExprEvalError } from './expr-eval';
import { argocdSyncStatusSkipReason } from './argocd-refresh';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../engine-facts';

export interface EngineMode {
  readonly name: string;
  /** The ConfigMap the controller reads. */
  readonly configMapName: string;
  /** The environment of `when`/`oncePer` and the data of templates, for one object at `now`. */
  variables(object: GoMap, now: Date, context: Readonly<Record<string, string>>): GoMap;
  /**
   * Why the controller would not process `object` at all on this reconcile; undefined: it would. @default never skips
   */
  skipReason?(object: GoMap): string | undefined;
}

export const ROLLOUTS_MODE: EngineMode = {
  name: 'rollouts',
  configMapName: ROLLOUTS_NOTIFICATION_CONFIGMAP,
  variables: (object, now) => ({ rollout: object, time: timeHelpers(now) }),
};

/** Argo Rollouts' `time` (utils/record: `timeExprs`): `Now()` and `Parse(rfc3339)`. */
export function timeHelpers(now: Date): GoMap {
  return {
    Now: new GoFunction('Now', () => GoTime.fromDate(now)),
    Parse: new GoFunction('Parse', ([text]: readonly GoValue[]) => {
      if (typeof text !== 'string') throw new ExprEvalError('time.Parse needs a string');
      const millis = Date.parse(text);
      if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(millis))
        throw new ExprEvalError(`parsing time ${JSON.stringify(text)} as RFC 3339 failed`);
      return new GoTime(millis);
    }),
  };
}

/**
 * Argo CD's notification controller (argo-cd `util/notification/settings` and `expression`): `app`, `context` (the
 * ConfigMap's `context` map), `time`, `strings`, `repo`. Not modelled: `secrets`, `context.notificationType` (the
 * service name, set only while rendering), `time`'s duration constants (`time.Hour` evaluates to nil here) and
 * the `repo` functions, which need the repo server and fail loudly in the model.
 */
export const ARGOCD_MODE: EngineMode = {
  name: 'argocd',
  configMapName: ARGOCD_NOTIFICATIONS_CONFIGMAP,
  variables: (object, now, context) => ({
    app: object,
    context: context as GoMap,
    time: { ...timeHelpers(now), ...GO_TIME_LAYOUTS },
    strings: STRINGS_HELPERS,
    repo: REPO_HELPERS,
  }),
  skipReason: argocdSyncStatusSkipReason,
};

/** The layout constants Argo CD's `time` exposes (Go's `time` package). */
const GO_TIME_LAYOUTS: GoMap = {
  Layout: "01/02 03:04:05PM '06 -0700",
  ANSIC: 'Mon Jan _2 15:04:05 2006',
  UnixDate: 'Mon Jan _2 15:04:05 MST 2006',
  RubyDate: 'Mon Jan 02 15:04:05 -0700 2006',
  RFC822: '02 Jan 06 15:04 MST',
  RFC822Z: '02 Jan 06 15:04 -0700',
  RFC850: 'Monday, 02-Jan-06 15:04:05 MST',
  RFC1123: 'Mon, 02 Jan 2006 15:04:05 MST',
  RFC1123Z: 'Mon, 02 Jan 2006 15:04:05 -0700',
  RFC3339: '2006-01-02T15:04:05Z07:00',
  RFC3339Nano: '2006-01-02T15:04:05.999999999Z07:00',
  Kitchen: '3:04PM',
  Stamp: 'Jan _2 15:04:05',
  StampMilli: 'Jan _2 15:04:05.000',
  StampMicro: 'Jan _2 15:04:05.000000',
  StampNano: 'Jan _2 15:04:05.000000000',
};

function stringArgs(name: string, count: number, args: readonly GoValue[]): string[] {
  if (args.length !== count || !args.every((arg) => typeof arg === 'string')) {
    throw new ExprEvalError(`strings.${name} needs ${count} string argument${count === 1 ? '' : 's'}`);
  }
  return args as string[];
}

const STRINGS_HELPERS: GoMap = {
  ReplaceAll: new GoFunction('ReplaceAll', (args) => {
    const [text, old, replacement] = stringArgs('ReplaceAll', 3, args) as [string, string, string];
    return text.split(old).join(replacement);
  }),
  ToUpper: new GoFunction('ToUpper', (args) => stringArgs('ToUpper', 1, args)[0]!.toUpperCase()),
  ToLower: new GoFunction('ToLower', (args) => stringArgs('ToLower', 1, args)[0]!.toLowerCase()),
};

const notModelled = (name: string) =>
  new GoFunction(name, () => {
    throw new ExprEvalError(
      `repo.${name} is not modelled (it asks the Argo CD repo server); check it with notifcheck or on a cluster`,
    );
  });

const REPO_HELPERS: GoMap = Object.fromEntries(
  ['RepoURLToHTTPS', 'FullNameByRepoURL', 'QueryEscape', 'GetCommitMetadata', 'GetAppDetails'].map((name) => [
    name,
    notModelled(name),
  ]),
);
