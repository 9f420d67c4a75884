// How the user's API answers a batch: the answers profile. The spec leaves open what data.code and
// data.success mean and how data.error elements name items; the real API's documentation shows
// `{"code":201,"success":100,...}` for a one-item batch and a detail that names no item, so the
// defaults follow that (README, "Reading the API's answers").
export interface AnswersProfile {
  /** data.success is the number of items accepted (checked); otherwise it is only informational. */
  successIsCount: boolean;
  /** Every element names its item: one that names none is not about an item (a warning). */
  namesItems: boolean;
  /** data.code values that mean the batch was processed; any other code means it failed. */
  successCodes: readonly number[];
}

/** 200 as the spec's status, 201 as the documentation's example. */
export const DEFAULT_SUCCESS_CODES: readonly number[] = [200, 201];

/** The two answer styles the sandbox can play, as presets of the profile. */
export const ANSWER_STYLES = {
  /** As the real API's documentation shows: success not a count, details that may name no item. */
  documented: { successIsCount: false, namesItems: false },
  /** As the sandbox answers by default: success counts accepted items, every detail names its item. */
  named: { successIsCount: true, namesItems: true },
} as const;
export type AnswerStyle = keyof typeof ANSWER_STYLES;
export const ANSWER_STYLE_NAMES = Object.keys(ANSWER_STYLES) as AnswerStyle[];
export const DEFAULT_ANSWER_STYLE: AnswerStyle = 'documented';
