// How a command reports its exit code to the entry point, which alone ends the process.

/** Commands report their exit code through `setExit`; the highest wins. */
export type SetExit = (code: number) => void;
