// The options of unattended runs in CI and cron (issue 19), each declared once (see option.ts):
// the JUnit file and what GitHub Actions tells a step through its environment.
import { text, type OptionTable } from './option.js';

/** Report files for CI, beside whichever --format: validate and push. */
export const CI_REPORT_OPTIONS = {
  junit: { flag: '--junit <file>', schema: text('also write the report as JUnit XML here (one testsuite per input file), for Jenkins and GitLab') },
  // set by GitHub Actions in every step: read for --format github, never a flag
  githubWorkspace: { env: 'GITHUB_WORKSPACE', schema: text('annotation paths are relative to this directory (default: the working directory)') },
  githubStepSummary: { env: 'GITHUB_STEP_SUMMARY', schema: text('--format github appends a Markdown summary of the run to this file') },
} satisfies OptionTable;
