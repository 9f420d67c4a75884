// The renderers are interchangeable: a command picks one by `--format` and hands it the run report.
// None of them decides the exit code; the command does, from the same report.
import type { Output } from './output.js';
import { renderGithub, type ReportContext } from './render-github.js';
import { renderHuman } from './render-human.js';
import { renderJson } from './render-json.js';
import type { RunReport } from './run-report.js';

export type Reporter = (report: RunReport, output: Output, context?: ReportContext) => void;
export const REPORT_FORMATS = ['human', 'json', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORTERS: Record<ReportFormat, Reporter> = { human: renderHuman, json: renderJson, github: renderGithub };
