// How an API's answer to a batch says which items failed, in the two styles batch-sync knows: the
// real API's documentation (details that name no item, data.success a value) and one that names
// every item. The embedded and standalone sandbox answer in either, push reads either
// (send/answers.ts turns a style into the answers profile), and both commands' help describe them
// from here, so the list and its words live once.
import { z } from 'zod';

/** What each style means to a reader of its answers: the presets of the answers profile. */
export const ANSWER_STYLES = {
  /** As the real API's documentation shows: success not a count, details that may name no item. */
  documented: { successIsCount: false, namesItems: false },
  /** Success counts accepted items, every detail names its item. */
  named: { successIsCount: true, namesItems: true },
} as const;
export type AnswerStyle = keyof typeof ANSWER_STYLES;
const ANSWER_STYLE_NAMES = Object.keys(ANSWER_STYLES) as [AnswerStyle, ...AnswerStyle[]];

/** What push reads answers as unless told otherwise: the real API's documented answers. */
export const DEFAULT_ANSWER_STYLE: AnswerStyle = 'documented';
/** What `batch-sync sandbox` answers unless told otherwise: every item named, handiest for trying mappings. */
export const SANDBOX_ANSWER_STYLE: AnswerStyle = 'named';

const HELP: Record<AnswerStyle, string> = {
  documented:
    "as the real API's documentation shows: error details that name no item, data.success always 100 and not a count, data.code 201 when a record was created",
  named: 'every error detail names its item as items[3] externalId=X, data.success counts the accepted items',
};

/** `documented: …; named: …`: the styles in the words both commands' help use. */
export const ANSWER_STYLES_HELP = ANSWER_STYLE_NAMES.map((style) => `${style}: ${HELP[style]}`).join('; ');

/** An answer style as an option takes it: the one list, refused in one wording. */
export const answerStyle = z.enum(ANSWER_STYLE_NAMES, { error: `takes ${ANSWER_STYLE_NAMES.join(' or ')}` });
