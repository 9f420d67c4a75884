// The options of unattended runs in CI and cron (issue 19), each declared once (see option.ts):
// the JUnit file, the webhook notification and the healthchecks-style ping, and what GitHub Actions
// tells a step through its environment.
import { z } from 'zod';
import { inGroup, type OptionTable } from './option.js';
import { text } from './option-schemas.js';

const NOTIFY_URL_ENV = 'BATCH_SYNC_NOTIFY_URL';
const PING_URL_ENV = 'BATCH_SYNC_PING_URL';

// never echoed: a webhook or ping URL usually holds a token in its path
const webUrl = (help: string) =>
  z
    .string()
    .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'takes an http:// or https:// URL (not shown: it may hold a token)')
    .meta({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' })
    .describe(help);

const NOTIFY_ON = ['failure', 'always'] as const;
const NOTIFY_FORMATS = ['auto', 'slack', 'teams', 'json'] as const;

/** Where a run announces itself when it ends (and, for the ping, when it starts). Push only; settable in the plan. */
export const NOTIFY_OPTIONS = inGroup('nightly', {
  notifyUrl: {
    flag: '--notify-url <url>',
    env: NOTIFY_URL_ENV,
    plan: 'notify.url',
    schema: webUrl(`POST a summary here when the run ends, in the shape --notify-format says (counts only: no row values, no key); or $${NOTIFY_URL_ENV}`),
  },
  notifyOn: {
    flag: '--notify-on <when>',
    plan: 'notify.on',
    default: 'failure',
    schema: z
      .enum(NOTIFY_ON, { error: 'takes failure or always' })
      .describe('when --notify-url is posted to: failure (exit code not 0) or always (default: failure)'),
  },
  notifyFormat: {
    flag: '--notify-format <format>',
    plan: 'notify.format',
    default: 'auto',
    schema: z
      .enum(NOTIFY_FORMATS, { error: 'takes auto, slack, teams or json' })
      .describe(
        'the body --notify-url gets: slack ({text}), teams (an Adaptive Card, for Teams Workflows), json (the whole summary); default auto: teams for *.logic.azure.com, *.powerplatform.com, *.webhook.office.com, slack for hooks.slack.com, else json',
      ),
  },
  pingUrl: {
    flag: '--ping-url <url>',
    env: PING_URL_ENV,
    plan: 'notify.pingUrl',
    schema: webUrl(
      `ping URL/start once the run holds its lock, URL on success, URL/fail on failure, each with ?rid=<run's UUID> (healthchecks.io); a dry run or a run refused by the lock only pings URL/log; or $${PING_URL_ENV}`,
    ),
  },
} satisfies OptionTable);

/** Report files for CI, beside whichever --format: validate and push. */
export const CI_REPORT_OPTIONS = inGroup('ci', {
  junit: { flag: '--junit <file>', schema: text('also write the report as JUnit XML here (one testsuite per input file), for Jenkins and GitLab') },
  // set by GitHub Actions in every step: read for --format github, never a flag
  githubWorkspace: { env: 'GITHUB_WORKSPACE', schema: text('annotation paths are relative to this directory (default: the working directory)') },
  githubStepSummary: { env: 'GITHUB_STEP_SUMMARY', schema: text('--format github appends a Markdown summary of the run to this file') },
} satisfies OptionTable);
