// The tool's version, in its own module: the read worker needs it (row fingerprints) without the CLI.
export const VERSION = '0.1.0';
