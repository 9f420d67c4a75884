// The four record kinds of the API, their paths, and the order a run sends them in.

export const RESOURCES = ['sales-profile', 'account', 'deal', 'activity'] as const;
export type Resource = (typeof RESOURCES)[number];

export const METHODS = ['post', 'patch'] as const;
export type Method = (typeof METHODS)[number];

/** Path of each resource under the base URL (the spec's endpoint table). */
export const RESOURCE_PATHS: Record<Resource, string> = {
  'sales-profile': '/v2/integration/sales-profile',
  account: '/v2/integration/account',
  deal: '/v2/integration/deals',
  activity: '/v2/integration/activities',
};

/**
 * Names users give a resource on the command line or in a file name, all mapped to the API's
 * singular kind. `users` is what many CRMs call their sales-profile export.
 */
const ALIASES: Record<string, Resource> = {
  'sales-profile': 'sales-profile',
  'sales-profiles': 'sales-profile',
  salesprofile: 'sales-profile',
  salesprofiles: 'sales-profile',
  sales_profiles: 'sales-profile',
  sales_profile: 'sales-profile',
  user: 'sales-profile',
  users: 'sales-profile',
  account: 'account',
  accounts: 'account',
  deal: 'deal',
  deals: 'deal',
  activity: 'activity',
  activities: 'activity',
};

export function parseResource(name: string): Resource | undefined {
  const key = name.trim().toLowerCase();
  // own keys only: `__proto__` or `constructor` (a sandbox path, a file name) are no resource
  return Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
}

/** The names parseResource takes (for one resource, or every one), as written in lower case: for JSON Schemas. */
export function resourceSpellings(resource?: Resource): string[] {
  return Object.keys(ALIASES).filter((name) => resource === undefined || ALIASES[name] === resource);
}

/** `deals.csv`, `2024-11-deals.ndjson`, `Sales-Profiles.json` → the resource named in it, if any. */
export function resourceFromFileName(path: string): Resource | undefined {
  const base = path.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\..*$/, '').toLowerCase();
  const direct = parseResource(stem);
  if (direct) return direct;
  // the last word-like token that names a resource wins: `crm_export_deals` → deal
  const tokens = stem.split(/[^a-z_-]+|(?<=[a-z])[_-](?=[a-z])/).filter(Boolean);
  for (let i = tokens.length - 1; i >= 0; i--) {
    const found = parseResource(tokens[i]!);
    if (found) return found;
  }
  const joined = stem.match(/sales[-_ ]?profiles?/);
  return joined ? 'sales-profile' : undefined;
}

/** How a sentence names each kind. */
const NOUNS: Record<Resource, string> = { 'sales-profile': 'sales profile', account: 'account', deal: 'deal', activity: 'activity' };

/** `an account`, `a sales profile`: a resource in a sentence, with its article. */
export function aResource(resource: Resource): string {
  const noun = NOUNS[resource];
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

export const RESOURCE_NAMES_HELP = 'sales-profile, account, deal, activity (plural forms and "users" also work)';
