// One input file and how to read and map it, as the command line or the plan's jobs name it.
import type { Resource } from '../contract/resources.js';
import type { ReaderOptions } from '../read/types.js';

export interface Job {
  file: string;
  /** From --resource, the plan, the profile, or the file name — resolved before the run starts. */
  resource?: Resource;
  /** Path of a mapping profile; absent for canonical input. */
  profile?: string;
  /** The profile is the `<name>.profile.json` found beside the file, not one named by the user. */
  profileBeside?: boolean;
  reader?: ReaderOptions;
}
