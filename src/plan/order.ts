// Dependency order of a run: sales profiles before the deals and activities that name them as
// owner or agent, accounts before the deals and activities linked to them, deals before activities.
import { RESOURCES, type Resource } from '../contract/resources.js';

export const SEND_ORDER: readonly Resource[] = RESOURCES;

/** Stable sort of jobs by the send order of their resource (files of one kind keep their order). */
export function inSendOrder<T extends { resource: Resource }>(jobs: readonly T[]): T[] {
  return jobs
    .map((job, index) => ({ job, index }))
    .sort((a, b) => SEND_ORDER.indexOf(a.job.resource) - SEND_ORDER.indexOf(b.job.resource) || a.index - b.index)
    .map(({ job }) => job);
}
