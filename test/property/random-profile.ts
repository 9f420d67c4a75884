// fast-check arbitrary for a valid mapping profile over a given header: which columns feed which
// fields, with constants, value maps, number parsing, custom fields and skip conditions chosen at
// random. Every profile it makes is valid, so exit 2 can only come from the input file.
import fc from 'fast-check';

type ProfileResource = 'account' | 'deal';

export interface RandomProfile {
  resource: ProfileResource;
  profile: Record<string, unknown>;
}

const pick = (header: string[]) => fc.constantFrom(...header);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

export function randomProfile(header: string[]): fc.Arbitrary<RandomProfile> {
  const skipIf = maybe(
    fc.oneof(
      pick(header).map((column) => ({ column, empty: true })),
      fc.tuple(pick(header), fc.constantFrom('0', 'x', '#N/A', '')).map(([column, equals]) => ({ column, equals })),
    ),
  );
  const customFields = maybe(fc.tuple(pick(header), fc.constantFrom('string', 'number', 'boolean')).map(([column, type]) => [{ key: 'extra', type, column }]));
  const decimal = fc.constantFrom(',', '.', 'auto');

  const account = fc
    .record({
      id: pick(header),
      name: fc.oneof(
        pick(header).map((c) => c as unknown),
        fc.constant({ const: 'Acme' }),
      ),
      type: fc.oneof(
        fc.constant({ const: 'COMPANY' } as unknown),
        pick(header).map((column) => ({ column, map: { x: 'PERSON' }, otherwise: 'COMPANY' })),
        pick(header).map((column) => ({ column })),
      ),
      trim: fc.boolean(),
      skipIf,
      customFields,
      decimal,
    })
    .map(({ id, name, type, trim, skipIf: skip, customFields: custom, decimal: mark }) => ({
      resource: 'account' as const,
      profile: {
        resource: 'account',
        decimal: mark,
        fields: { externalId: trim ? { column: id, trim: true } : id, name, type },
        ...(skip ? { skipIf: skip } : {}),
        ...(custom ? { customFields: custom } : {}),
      },
    }));

  const deal = fc
    .record({
      id: pick(header),
      title: fc.oneof(
        pick(header).map((c) => c as unknown),
        fc.constant({ template: 'Deal {' + header[0] + '}' }),
      ),
      amount: maybe(pick(header)),
      won: maybe(pick(header)),
      closeDate: maybe(pick(header)),
      skipIf,
      decimal,
    })
    .map(({ id, title, amount, won, closeDate, skipIf: skip, decimal: mark }) => ({
      resource: 'deal' as const,
      profile: {
        resource: 'deal',
        decimal: mark,
        dateFormat: 'auto',
        fields: {
          externalId: id,
          title,
          ownerExternalId: { const: 'ana' },
          agentExternalId: { const: 'ana' },
          isWon: won ? { column: won, map: { true: true, sim: true }, otherwise: false } : { const: false },
          'amount.value': amount ? { column: amount } : { const: '1' },
          'amount.currency': { const: 'USD' },
          ...(closeDate ? { closeDate: { column: closeDate, transform: 'date' } } : {}),
        },
        ...(skip ? { skipIf: skip } : {}),
      },
    }));

  return fc.oneof(account, deal);
}
