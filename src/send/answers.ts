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
