import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli';
import { loadClusterFile } from '../../src/clusters';
import { notificationChecks } from '../helpers/notification-checks';
import { clusterDir } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { renderOnce } from '../helpers/render-once';
import { ALSO_COVERED } from '../helpers/also-covered';
import { parseExpr } from '../../src/notifications/expr/parse';
import { releaseProblems, typeProblems } from '../../src/verify/notifications/engine-release';

const { stdout, stderr } = capturePrintedLines();
const FIXTURE = join(import.meta.dirname, '../fixtures/team-notifications/payments.yaml');

function fixtureConfig() {
  const loaded = loadClusterFile(FIXTURE);
  if ('problems' in loaded) throw new Error(loaded.problems.join('\n'));
  return loaded.config;
}

function configMapData(file: string): Record<string, string> {
  const rendered = renderOnce(fixtureConfig()).find((f) => f.path === file);
  return (parse(rendered!.content) as { data: Record<string, string> }).data;
}

/** Without a render: what verify's engine-release family adds for one team expression, release by release. */
function releaseMessages(version: string, text: string): string[] {
  const config = fixtureConfig();
  const declared = { ...config, argocd: { ...config.argocd, version } };
  const at = [{ at: 'trigger.app-team[0].when', expr: parseExpr(text), text }];
  const { now, later } = typeProblems('argocd', declared, at);
  return [
    ...releaseProblems('argocd', declared, at).map((p) => `release: ${p.message}`),
    ...now.map((p) => `fails: ${p.message}`),
    ...later.map((p) => `warns: ${p.message}`),
  ];
}

/** The fixture with its text edited, loaded from a fresh folder: the problems, with the folder stripped. */
function problemsAfter(edit: (text: string) => string): string[] {
  const dir = clusterDir({ 'payments.yaml': edit(readFileSync(FIXTURE, 'utf8')) });
  const result = loadClusterFile(join(dir, 'payments.yaml'));
  return 'problems' in result ? result.problems.map((p) => p.replace(`${dir}/`, 'clusters/')) : [];
}

describe("a team's own notifications (extraData)", () => {
  it(
    "renders a ConfigMap holding both the team's keys and glidepath's, with the subscriptions appended",
    ALSO_COVERED,
    () => {
      const rollouts = configMapData('rollouts-notifications.k8s.yaml');
      expect(Object.keys(rollouts).sort()).toEqual([
        'service.slack',
        'service.webhook.glidepath-relay',
        'subscriptions',
        'template.glidepath-rollout-fact',
        'template.rollout-degraded',
        'trigger.glidepath-rollout-state',
        'trigger.rollout-degraded',
      ]);
      expect(rollouts['service.slack']).toBe('token: $slack-token\nusername: rollouts-bot\n');
      expect(parse(rollouts.subscriptions!)).toEqual([
        {
          recipients: ['glidepath-relay'],
          triggers: ['glidepath-rollout-state'],
          selector: 'hangar.io/release-tracked=true',
        },
        { recipients: ['slack:payments-deploys'], triggers: ['rollout-degraded'], selector: 'team=payments' },
      ]);
      const argocd = configMapData('argocd-notifications.k8s.yaml');
      expect(argocd.defaultTriggers).toBe('- sync-succeeded\n');
      expect(parse(argocd.context!)).toEqual({ argocdUrl: 'https://argocd.payments.test' });
      expect(parse(argocd.subscriptions!)).toHaveLength(2);
    },
  );

  it('passes the notification checks of verify, and an on- trigger name only warns', () => {
    const report = notificationChecks(fixtureConfig());
    expect(report.violations).toEqual([]);
    expect(report.families.find((f) => f.family === 'extra-data')?.objects).toBe(2);

    const dir = clusterDir({
      'payments.yaml': readFileSync(FIXTURE, 'utf8')
        .replace('triggers: [rollout-degraded]', 'triggers: [on-degraded]')
        .replace('trigger.rollout-degraded:', 'trigger.on-degraded:'),
    });
    const loaded = loadClusterFile(join(dir, 'payments.yaml'));
    if ('problems' in loaded) throw new Error(loaded.problems.join('\n'));
    const warned = notificationChecks(loaded.config);
    expect(warned.violations).toEqual([]);
    expect(warned.warnings.map((w) => `${w.rule}: ${w.message.split(':')[0]}`)).toEqual([
      'extra-data/trigger-names: trigger.on-degraded starts with "on-", the prefix of the triggers Argo ' +
        'Rollouts makes from Kubernetes events',
    ]);
  });

  it(
    'fails a team trigger that does not compile on the declared engine release (the whole ConfigMap would stop)',
    ALSO_COVERED,
    () => {
      const config = fixtureConfig();
      const on = (controllerVersion: string) => ({
        ...config,
        rollouts: {
          ...config.rollouts,
          controllerVersion,
          extraData: {
            ...config.rollouts.extraData,
            'trigger.rollout-degraded':
              `- when: rollout.metadata?.annotations?.["team"] == ` + `'payments'\n  send: [rollout-degraded]\n`,
          },
        },
      });
      expect(notificationChecks(on('1.9.1')).violations).toEqual([]);
      expect(
        notificationChecks(on('1.8.5')).violations.map((v) => `${v.rule}: ${v.message.split(' uses ')[0]}`),
      ).toEqual([
        'extra-data/engine-release: trigger.rollout-degraded[0].when ' +
          '"rollout.metadata?.annotations?.[\\"team\\"] == \'payments\'"',
      ]);
    },
  );

  it('the fix for a team trigger using ?? on Argo CD 2.6.1 (expr v1.9.0) does not use ?? itself', () => {
    const config = fixtureConfig();
    const on = {
      ...config,
      argocd: {
        ...config.argocd,
        version: '2.6.1',
        extraData: {
          ...config.argocd.extraData,
          'trigger.app-team': `- when: (app.metadata.annotations ?? {})["team"] == 'payments'\n  send: [app-team]\n`,
        },
      },
    };
    const [problem] = notificationChecks(on).violations.filter((v) => v.rule === 'extra-data/engine-release');
    expect(problem?.message).toContain('uses `??` (nil coalescing), which github.com/antonmedv/expr v1.9.0');
    // The release the file declares is named, not the first release of its row (helper-19: "of Argo CD 2.6.10").
    const text = `(app.metadata.annotations ?? {})["team"] == 'payments'`;
    const on272 = { ...on, argocd: { ...on.argocd, version: '2.7.2' } };
    const [on272Problem] = releaseProblems('argocd', on272, [{ at: 'when', expr: parseExpr(text), text }]);
    expect(on272Problem?.message).toContain('v1.9.0 of Argo CD 2.7.2 lacks (argocd.version: 2.7.2)');
    // Both forms the fix names were run on expr v1.9.0: it refuses `??`, and evaluates the conditional, m nil or not.
    expect(problem?.fix).toBe(
      'rewrite it without them (write a != nil ? a : b for a ?? b, and read a key as (m != nil ? m["key"] : nil), ' +
        'not (m ?? {})["key"]), or set the field to a release that has them (docs/engine-versions.md)',
    );
  });

  it('a % of a division fails verify where the checker refuses it, and warns where an upgrade does (helper-19)', () => {
    // Run on the real expr: v1.9.0 runs time.Now().Unix() / 3600 % 24, v1.12.5 fails at run time ("float64 % int"),
    // v1.14.1 and later refuse to compile it: `/` is a float64 there, and % takes integers.
    const on = (version: string) => {
      const config = fixtureConfig();
      const trigger =
        "- when: app.status.operationState.phase == 'Failed'\n" +
        '  oncePer: time.Now().Unix() / 3600 % 24\n' +
        '  send: [app-team]\n';
      const extraData = { ...config.argocd.extraData, 'trigger.app-team': trigger };
      return notificationChecks({ ...config, argocd: { ...config.argocd, version, extraData } });
    };
    const refused = on('3.1.0').violations.filter((v) => v.rule === 'extra-data/engine-release');
    expect(refused.map((v) => v.message)).toEqual([
      expect.stringContaining(
        'oncePer "time.Now().Unix() / 3600 % 24" does not compile on github.com/expr-lang/expr v1.17.5 of Argo CD ' +
          '3.1.0 (invalid operation: % (mismatched types float64 and int)): the engine refuses the whole ConfigMap',
      ),
    ]);
    expect(releaseMessages('2.6.1', 'time.Now().Unix() / 3600 % 24 == 0')).toEqual([
      'warns: trigger.app-team[0].when "time.Now().Unix() / 3600 % 24 == 0" fails on every evaluation on ' +
        'github.com/antonmedv/expr v1.12.5 of Argo CD 2.8.0 (after an upgrade) (invalid operation: % (mismatched ' +
        'types float64 and int)); from Argo CD 2.9.0 on it does not compile, and the engine would refuse the whole ' +
        "ConfigMap, glidepath's facts included",
    ]);
    // The run of v1.12.5 checks the operands of % only: `/ 2 and true` runs there, and stops compiling at 2.9.0.
    expect(releaseMessages('2.8.0', 'app.spec.replicas / 2 and true')).toEqual([
      expect.stringMatching(
        /^warns: .* does not compile on github\.com\/antonmedv\/expr v1\.15\.2 of Argo CD 2\.9\.0 \(after an upgrade\)/,
      ),
    ]);
    // int() is there from expr v1.12.5 (Argo CD 2.8), string() from v1.15.1: the fix for 2.8 draws no warning.
    expect(releaseMessages('2.8.0', 'int(app.spec.replicas / 60) % 24 == 1')).toEqual([]);
  });

  it('a pattern, a division by 0 or an integer the engine refuses at load fails verify (helper-23)', () => {
    // Each refused by the real engine of every release (npm run judge:engine), where verify passed them before.
    expect(releaseMessages('3.1.0', 'app.metadata.name matches "(?=api)"')).toEqual([
      'fails: trigger.app-team[0].when "app.metadata.name matches \\"(?=api)\\"" does not compile on ' +
        'github.com/expr-lang/expr v1.17.5 of Argo CD 3.1.0 (error parsing regexp: invalid or unsupported Perl ' +
        "syntax: `(?=`): the engine refuses the whole ConfigMap, glidepath's facts included",
    ]);
    expect(releaseMessages('3.1.0', '1 % (1 - 1) == 0')).toEqual([expect.stringContaining('(integer divide by zero)')]);
    // v1.9.0 folds / of two integers as an integer division; later releases fold it to a float (+Inf).
    expect(releaseMessages('2.6.1', '1 / 0 > 0')).toEqual([
      expect.stringMatching(/^fails: .* v1\.9\.0 of Argo CD 2\.6\.1 \(integer divide by zero\)/),
    ]);
    expect(releaseMessages('2.8.0', '1 / 0 > 0')).toEqual([]);
    // The engine loads `x % 0`, and every evaluation fails (judge:expr runs it on each release).
    expect(releaseMessages('3.1.0', 'app.spec.replicas % 0 == 0')).toEqual([
      'warns: trigger.app-team[0].when "app.spec.replicas % 0 == 0" fails on every evaluation on ' +
        'github.com/expr-lang/expr v1.17.5 of Argo CD 3.1.0 (integer divide by zero)',
    ]);
    expect(() => parseExpr('9223372036854775808 > 1')).toThrow('invalid integer literal');
    expect(parseExpr('9223372036854775807 > 1')).toBeDefined();
  });

  it('let and a; b pass where the declared release reads them, and fail where it does not (helper-23)', () => {
    // On the real engines (npm run judge:engine): let from antonmedv/expr v1.15.1 (Argo CD 2.9), a; b from v1.17.5.
    const text = "app.metadata.name == 'x' and (let n = app.spec.replicas; n) == 1";
    expect(releaseMessages('2.9.0', text)).toEqual([]);
    expect(releaseMessages('2.8.0', text)).toEqual([
      expect.stringContaining('uses `let name = value; ...` (a variable), which github.com/antonmedv/expr v1.12.5'),
    ]);
    expect(releaseMessages('3.1.0', 'app.spec.replicas; true')).toEqual([]);
    // A backtick string, the natural way to write a pattern, from expr-lang v1.16.9 (Argo CD 3.0) on (helper-24).
    expect(releaseMessages('3.0.0', 'app.metadata.name matches `^api-\\d+$`')).toEqual([]);
    expect(releaseMessages('2.13.0', 'app.metadata.name matches `^api-\\d+$`')).toEqual([
      expect.stringContaining('uses a backtick string, which github.com/antonmedv/expr'),
    ]);
    // A predicate without braces names its element from antonmedv/expr v1.12.5 (Argo CD 2.8) on.
    const bare = 'all(app.status.conditions, .status == "True")';
    expect(releaseMessages('2.8.0', bare)).toEqual([]);
    expect(releaseMessages('2.6.1', bare)).toEqual([
      expect.stringContaining('uses a predicate without braces (`all(list, .ok)`), which github.com/antonmedv/expr'),
    ]);
    expect(releaseMessages('3.0.0', 'app.spec.replicas; true')).toEqual([
      expect.stringContaining('uses `a; b` (a sequence), which github.com/expr-lang/expr v1.16.9'),
    ]);
  });

  it('a pattern only some Go releases refuse warns: which Go built an engine is not in the release table', () => {
    expect(releaseMessages('3.1.0', 'app.metadata.name matches "(?<team>api)-.*"')).toEqual([
      'warns: trigger.app-team[0].when "app.metadata.name matches \\"(?<team>api)-.*\\"": Go 1.21 and earlier ' +
        'refuse the pattern "(?<team>api)-.*" (error parsing regexp: invalid or unsupported Perl syntax: `(?<`): an ' +
        "engine built with it refuses the whole ConfigMap, glidepath's facts included",
    ]);
    expect(releaseMessages('3.1.0', 'app.metadata.name matches "(?P<team>api)-\\\\p{Greek}"')).toEqual([]);
  });

  it('a % of a ? : with a float branch warns that the runs taking that branch fail', () => {
    // On the real expr (npm run judge:expr): from v1.10.0, (x > 1 ? x / 2 : 1) % 2 fails whenever x > 1.
    const text = '(app.spec.replicas > 1 ? app.spec.replicas / 2 : 1) % 2 == 0';
    expect(releaseMessages('3.1.0', text)).toEqual([
      `warns: trigger.app-team[0].when ${JSON.stringify(text)} fails on each evaluation that takes a float branch ` +
        'of ? : or ?? on github.com/expr-lang/expr v1.17.5 of Argo CD 3.1.0 (invalid operation: % (mismatched ' +
        'types float64 and int))',
    ]);
    // v1.9.0 divides integers: the branch is an int there until the upgrade to Argo CD 2.8.
    expect(releaseMessages('2.6.1', text)).toEqual([expect.stringContaining('of Argo CD 2.8.0 (after an upgrade)')]);
    // A float literal is a float on v1.9.0 too, and ?? branches as ? : does (helper-21, on the real releases).
    expect(releaseMessages('2.6.1', '(app.spec.replicas > 1 ? 1.5 : 1) % 2 == 1')).toEqual([
      expect.stringContaining('float branch of ? : or ?? on github.com/antonmedv/expr v1.9.0 of Argo CD 2.6.1 ('),
    ]);
    expect(releaseMessages('3.1.0', '(app.spec?.replicas ?? 1.5) % 2 == 1')).toEqual([
      expect.stringContaining('float branch of ? : or ?? on github.com/expr-lang/expr v1.17.5 of Argo CD 3.1.0 ('),
    ]);
  });

  it('a run failure under and, or, ? : or ?? fails on the evaluations that reach it (helper-21)', () => {
    // On the real v1.12.5: true when replicas is nil, false when it is 1.
    for (const text of [
      'app.spec.replicas == nil or app.spec.replicas * 1.0 % 2 == 0',
      'app.spec.replicas > 2 and not (app.spec.replicas / 2)',
    ])
      expect(releaseMessages('2.8.0', text)).toEqual([
        expect.stringContaining(`${JSON.stringify(text)} fails on each evaluation that reaches it on github.com/`),
      ]);
    // not of any arithmetic result fails every run: a number or a string is no bool (v1.12.5, v1.15.2, v1.17.5).
    expect(releaseMessages('3.1.0', 'not (app.spec.replicas + 1)')).toEqual([
      expect.stringContaining(
        'fails on every evaluation on github.com/expr-lang/expr v1.17.5 of Argo CD 3.1.0 ' +
          '(invalid operation: not (mismatched type: an arithmetic result))',
      ),
    ]);
  });

  it('not of a float fails every evaluation where the checker passes it, and is told to give not a bool', () => {
    // On the real expr (npm run judge:expr): v1.12.5 (Argo CD 2.8) compiles not (x / 2) and fails each run.
    const config = fixtureConfig();
    const declared = { ...config, argocd: { ...config.argocd, version: '2.8.0' } };
    const text = 'not (app.spec.replicas / 2)';
    const { now, later } = typeProblems('argocd', declared, [{ at: 'when', expr: parseExpr(text), text }]);
    expect(now).toEqual([]);
    expect(later.map((p) => p.message)).toEqual([
      `when ${JSON.stringify(text)} fails on every evaluation on github.com/antonmedv/expr v1.12.5 of Argo CD 2.8.0 ` +
        '(invalid operation: not (mismatched type float64)); from Argo CD 2.9.0 on it does not compile, and the ' +
        "engine would refuse the whole ConfigMap, glidepath's facts included",
    ]);
    expect(later[0]?.fix).toMatch(/^give each operator what it takes: not, and, or and \? : a bool/);
  });

  it('float() is a float64 to the checkers that have it: float(x) % 2 does not compile there (helper-21)', () => {
    expect(releaseMessages('2.8.0', 'float(app.spec.replicas) % 2 == 0')).toEqual([
      expect.stringContaining(
        'fails: trigger.app-team[0].when "float(app.spec.replicas) % 2 == 0" does not compile on github.com/' +
          'antonmedv/expr v1.12.5 of Argo CD 2.8.0 (invalid operation: % (mismatched types float64 and int))',
      ),
    ]);
    expect(releaseMessages('2.8.0', 'int(app.spec.replicas) % 2 == 0')).toEqual([]);
  });

  it('a % of a float that only the run sees warns on every release that compiles it', () => {
    // On the real expr (npm run judge:expr): from v1.10.0 the checker passes x * 1.0 % 2 (x is unknown to it) and
    // each run fails ("float64 % int"); v1.9.0's checker gives x * 1.0 the type float64 and refuses it.
    const text = 'app.spec.replicas * 1.0 % 2 == 0';
    expect(releaseMessages('2.6.1', text)).toEqual([
      expect.stringMatching(/^fails: .* does not compile on github\.com\/antonmedv\/expr v1\.9\.0 of Argo CD 2\.6\.1 /),
    ]);
    expect(releaseMessages('3.1.0', text)).toEqual([
      `warns: trigger.app-team[0].when ${JSON.stringify(text)} fails on every evaluation on ` +
        'github.com/expr-lang/expr v1.17.5 of Argo CD 3.1.0 (invalid operation: % (mismatched types float64 and int))',
    ]);
  });

  it("lets a team's webhook use its own Secret key, but not a literal token", () => {
    const config = fixtureConfig();
    const withWebhook = (header: string) => ({
      ...config,
      rollouts: {
        ...config.rollouts,
        extraData: {
          ...config.rollouts.extraData,
          'service.webhook.jenkins':
            `url: https://jenkins.test\nheaders:\n  - name: ` + `Authorization\n    value: ${header}\n`,
        },
      },
    });
    expect(notificationChecks(withWebhook('Bearer $jenkins-token')).violations).toEqual([]);
    expect(notificationChecks(withWebhook('Basic c2VjcmV0OnNlY3JldA==')).violations.map((v) => v.rule)).toContain(
      'secrets/webhook-token-reference',
    );
  });

  it(
    'verify warns on a team trigger that fires on every evaluation, a subscription to a trigger nobody ' +
      'defined, or an expression nested deeper than it reads: the engine loads all three',
    () => {
      const config = fixtureConfig();
      // The engine compiles it; verify's walks stop at a tree 500 levels deep.
      const chain = Array(600).fill('rollout.spec.replicas').join(' + ');
      const broken = {
        ...config,
        rollouts: {
          ...config.rollouts,
          extraData: {
            ...config.rollouts.extraData,
            'trigger.rollout-degraded':
              "- when: rollout.status?.phase == 'Degraded'\n  oncePer: string(time.Now().Unix() / 60)\n  send: " +
              '[rollout-degraded]\n',
            // A chain of + is as deep a tree without a bracket: 2,000 terms crashed verify (helper-21).
            'trigger.rollout-chain': `- when: "${chain} > 1"\n  send: [rollout-degraded]\n`,
            subscriptions: '- recipients: [slack:payments-deploys]\n  triggers: [rollout-paused]\n',
          },
        },
      };
      const report = notificationChecks(broken);
      expect(report.violations).toEqual([]);
      expect(report.warnings.map((v) => `${v.rule}: ${v.message.split(',')[0]}`)).toEqual([
        'extra-data/references: subscriptions[0] names trigger "rollout-paused"',
        'extra-data/time-bucket: trigger.rollout-degraded[0].oncePer "string(time.Now().Unix() / 60)" takes 120 ' +
          'values in 120 seconds (time.Now().Unix() / 60 is a float): the trigger fires again and again and fills ' +
          "the notified annotation glidepath's facts share",
        'extra-data/engine-release: trigger.rollout-chain[0].when nests deeper than verify reads: verify did not ' +
          'judge it (its syntax past that depth',
      ]);
    },
  );

  it('refuses a key glidepath renders and any glidepath- name, naming the key', () => {
    expect(
      problemsAfter((t) =>
        t.replace(
          '    service.slack: |\n      token: $slack-token\n      username',
          '    service.webhook.glidepath-relay: |\n      url: http://x\n      username',
        ),
      ),
    ).toEqual([
      'clusters/payments.yaml: rollouts.extraData["service.webhook.glidepath-relay"]: names starting ' +
        '"glidepath-" are glidepath\'s own; choose another name (line 9, column 5)',
    ]);
    expect(problemsAfter((t) => t.replace('trigger.sync-succeeded:', 'trigger.glidepath-mine:'))).toEqual([
      'clusters/payments.yaml: argocd.extraData["trigger.glidepath-mine"]: names starting "glidepath-" are ' +
        "glidepath's own; choose another name (line 37, column 5)",
    ]);
    expect(
      problemsAfter((t) => t.replace('triggers: [sync-succeeded]', 'triggers: [glidepath-sync-failed]'))[0],
    ).toMatch(
      /^clusters\/payments\.yaml: argocd\.extraData\["subscriptions"\]: \[0\]\.triggers names glidepath-sync-failed.* \(line 45\)$/,
    );
    expect(
      problemsAfter((t) =>
        t.replace(
          '    service.slack: |\n      token: $slack-token\n    template',
          '    context: |\n      a: b\n    template',
        ),
      ),
    ).toEqual([
      'clusters/payments.yaml: argocd.extraData["context"]: context is set twice (argocd.context and ' +
        'argocd.extraData.context); keep one of them (line 33, column 5)',
    ]);
  });

  it('refuses what the engine cannot load, with the key and the line in the cluster file', () => {
    expect(
      problemsAfter((t) =>
        t.replace("when: rollout.status?.phase == 'Degraded'", "when: rollout.status?.phase = 'Degraded'"),
      ),
    ).toEqual([
      'clusters/payments.yaml: rollouts.extraData["trigger.rollout-degraded"]: [0].when does not compile: ' +
        'unexpected "=" (== compares; = is only for let) at position 22 of "rollout.status?.phase = \'Degraded\'" ' +
        '(line 19)',
    ]);
    expect(
      problemsAfter((t) => t.replace('{{ .rollout.status.phase | lower }}', '{{ .rollout.status.phase | lowercase }}')),
    ).toEqual([
      'clusters/payments.yaml: rollouts.extraData["template.rollout-degraded"]: message does not parse as a ' +
        'Go template: function "lowercase" not defined (line 14)',
    ]);
    expect(problemsAfter((t) => t.replace('"color": "#E96D76"}]', '"color": "{{ if .x }}red"}]'))).toEqual([
      'clusters/payments.yaml: rollouts.extraData["template.rollout-degraded"]: slack.attachments does not ' +
        'parse as a Go template: unexpected EOF: {{if}} has no {{end}} (line 17)',
    ]);
    expect(problemsAfter((t) => t.replace('selector: team=payments', 'selector: team in payments'))).toEqual([
      'clusters/payments.yaml: rollouts.extraData["subscriptions"]: [0].selector "team in payments": expected ' +
        "'(' after in or notin (line 25)",
    ]);
    // A key the engine reads nothing from: it loads the ConfigMap anyway, so the loader takes it and verify warns.
    expect(
      problemsAfter((t) =>
        t.replace(
          'service.slack: |\n      token: $slack-token\n      username',
          'notifiers.yaml: |\n      token: $slack-token\n      username',
        ),
      ),
    ).toEqual([]);
    expect(
      problemsAfter((t) => t.replace('send: [rollout-degraded]', 'send: rollout-degraded\n        - bad'))[0],
    ).toMatch(/rollouts\.extraData\["trigger\.rollout-degraded"\]: not valid YAML.* \(line \d+\)$/);
    // A tag it does not know (`!when x`): the engine reads the value under it (npm run judge:engine).
    expect(problemsAfter((t) => t.replace('send: [rollout-degraded]', 'send: [!when rollout-degraded]'))).toEqual([]);
  });

  it('refuses a literal secret: the value stays in the notifications Secret as $key', () => {
    const slackToken = ['xoxb', '123456789012', 'abcdefghijkl'].join('-');
    const problems = problemsAfter((t) =>
      t.replace('token: $slack-token\n      username', `token: ${slackToken}\n      username`),
    );
    expect(problems[0]).toMatch(
      /^clusters\/payments\.yaml: rollouts\.extraData\["service\.slack"\]: looks like a Slack token \(xoxb… 30 characters\)/,
    );
    expect(problems.join('\n')).not.toContain(slackToken);
    expect(
      problemsAfter((t) =>
        t.replace(
          'token: $slack-token\n    template',
          'url: https://h.test\n      headers: [{name: Authorization, value: Token a1b2c3}]\n    template',
        ),
      ),
    ).toEqual([
      'clusters/payments.yaml: argocd.extraData["service.slack"]: headers[0]: the Authorization header holds ' +
        'a literal; put the credential in the notifications Secret and write $<key> here (line 33, column 5)',
    ]);
    expect(
      problemsAfter((t) => t.replace('token: $slack-token\n    template', 'password: hunter2hunter2\n    template')),
    ).toEqual([
      'clusters/payments.yaml: argocd.extraData["service.slack"]: password: a field named "password" holds a ' +
        'value; put it in the notifications Secret and write $<key> here (line 33, column 5)',
    ]);
  });

  it('refuses a secret that YAML escapes hide in the text, as the engine reads it decoded, and never prints it', () => {
    const token = 'ghp_' + 'Zq7Lm2Xc9Vb4Nk8Hj3Gf6Ds1Aw5Er0Ty2Ua1';
    const escaped = token.replace('G', '\\u0047');
    const problems = problemsAfter((t) =>
      t.replace(
        'token: $slack-token\n    template',
        `url: https://h.test\n      headers: [{name: X-Token, value: "${escaped}"}]\n    template`,
      ),
    );
    expect(problems).toEqual([
      'clusters/payments.yaml: argocd.extraData["service.slack"]: headers.0.value: looks like a GitHub token (ghp_… ' +
        '40 characters), as the engine reads the value (YAML escapes decoded); put it in the notifications Secret ' +
        'and write $<key> here (line 33, column 5)',
    ]);
    expect(problems.join('\n')).not.toContain(token.slice(4));
  });

  it('npm run verify prints a warning without failing, with its line in the cluster file', async () => {
    const text = readFileSync(FIXTURE, 'utf8')
      .replace('triggers: [sync-succeeded]', 'triggers: [on-sync-succeeded]')
      .replace('trigger.sync-succeeded:', 'trigger.on-sync-succeeded:')
      .replace('- sync-succeeded', '- on-sync-succeeded')
      .replace("oncePer: rollout.status?.currentPodHash ?? ''", 'oncePer: string(time.Now().Unix())');
    const dir = clusterDir({ 'payments.yaml': text });
    const lineOf = (written: string) => text.split('\n').findIndex((line) => line.includes(written)) + 1;
    expect(await main(['verify', '--clusters', dir])).toBe(0);
    const file = join(dir, 'payments.yaml');
    expect(stdout).toContainEqual(
      expect.stringMatching(
        new RegExp(
          '^ {2}! ConfigMap/argocd-apps/argocd-notifications-cm: extra-data/trigger-names: trigger\\.on-sync-' +
            `succeeded starts with "on-".* \\(${file} line ${lineOf('trigger.on-sync-succeeded:') + 1}\\)$`,
        ),
      ),
    );
    expect(stdout).toContainEqual(
      expect.stringMatching(
        new RegExp(`extra-data/time-bucket: .* takes 120 values .* \\(${file} line ${lineOf('oncePer: string(')}\\)$`),
      ),
    );
    expect(stdout.at(-1)).toMatch(/, 0 violations, 2 warnings$/);
  });

  it('exits 2 and writes nothing when extraData is refused', async () => {
    const dir = clusterDir({
      'payments.yaml': readFileSync(FIXTURE, 'utf8').replace('trigger.rollout-degraded:', 'trigger.glidepath-x:'),
    });
    const out = mkdtempSync(join(tmpdir(), 'glidepath-out-'));
    expect(await main(['synth', '--clusters', dir, '--out', out])).toBe(2);
    expect(stderr.join('\n')).toContain('rollouts.extraData["trigger.glidepath-x"]');
    expect(readdirSync(out)).toEqual([]);
  });
});
