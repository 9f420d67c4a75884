// `slug` over names in other scripts than Latin (a Bitrix24 export names its owners in Cyrillic):
// the letters were dropped, so `{Owner|slug}@…` made no e-mail and the id was empty. They are now
// transliterated to ASCII (any-ascii), after accents are dropped as before, so a Latin name's slug
// is unchanged; what a user sees is the items validate emits.
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const PROFILE = {
  resource: 'sales-profile',
  fields: {
    externalId: { column: 'Ответственный', transform: 'slug' },
    email: { template: '{Ответственный|slug}@crm.example.com' },
    'profile.firstName': { column: 'Ответственный', transform: 'firstName' },
    'profile.lastName': { column: 'Ответственный', transform: 'lastName' },
  },
};

test('owners named in Cyrillic and Greek get ASCII slugs and e-mails; Latin names keep the slugs they had', async () => {
  const dir = tempFiles({
    'owners.csv': [
      'Ответственный',
      'Иван Петров',
      'Юлия Щукина',
      'Андрей Ёлкин',
      'Γιώργος Παπαδόπουλος',
      'José Peña',
      'Ana ★ Souza',
      'Søren Łukasz Straße',
    ].join('\n'),
    'owners.profile.json': JSON.stringify(PROFILE),
  });
  const r = await spawnCli(['validate', '--emit', '-', 'owners.csv'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const items = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => (JSON.parse(l) as { items: { externalId: string; email: string }[] }).items);
  expect(items.map((i) => [i.externalId, i.email])).toEqual([
    ['ivan-petrov', 'ivan-petrov@crm.example.com'],
    ['yuliya-shchukina', 'yuliya-shchukina@crm.example.com'],
    ['andrei-elkin', 'andrei-elkin@crm.example.com'],
    ['giorgos-papadopoylos', 'giorgos-papadopoylos@crm.example.com'],
    ['jose-pena', 'jose-pena@crm.example.com'],
    // a symbol is no letter: dropped as before
    ['ana-souza', 'ana-souza@crm.example.com'],
    // Latin letters with no accent to drop were dropped before: their slugs, ids already sent, stay
    // as they were (a new slug would be a new sales profile on the server)
    ['s-ren-ukasz-stra-e', 's-ren-ukasz-stra-e@crm.example.com'],
  ]);
  expect(r.stderr).toContain('OK: all 7 rows valid.');
});
