// Text a POSIX shell reads back as one word, for the commands batch-sync prints to be pasted.

/** Text inside single quotes (completion scripts, commands to paste): only the quote itself is written `'\''`. */
export const singleQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The text as it is when a shell reads it unchanged (letters, digits, `_@%+:,./-`), else single-quoted. */
export const shellWord = (text: string) => (/^[\w@%+:,./-]+$/.test(text) ? text : singleQuoted(text));
