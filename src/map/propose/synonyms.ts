// Column names users' exports give each API field, in English, Spanish and Portuguese. Compared
// after `squash` (no case, accents, spaces or punctuation), so `Fecha de cierre`, `FECHA_CIERRE`
// and `fecha-de-cierre` are one name. Order matters: earlier names win when several columns match.
import type { Resource } from '../../contract/resources.js';
import { fold } from '../transforms/text.js';

export const squash = (s: string) => fold(s).replace(/[^a-z0-9]/g, '');

const ID = ['externalid', 'idexterno', 'id externo', 'external id', 'id', 'código', 'codigo', 'code', 'record id', 'nro', 'número', 'numero', 'folio'];
/** A person's id column (a seller's, a user's): the sales profile's own id, or the deal's owner. */
const PERSON_ID = [
  'id vendedor',
  'vendedor id',
  'id del vendedor',
  'id de vendedor',
  'id do vendedor',
  'código vendedor',
  'código de vendedor',
  'código del vendedor',
  'código do vendedor',
  'cod vendedor',
  'cod. vendedor',
  'seller id',
  'seller code',
  'sales rep id',
  'rep id',
  'salesperson id',
  'agent id',
  'id agente',
  'código agente',
  'owner id',
  'id propietario',
  'id responsable',
  'id responsável',
  'user id',
  'usuario id',
  'id usuario',
  'id de usuario',
  'usuário id',
  'id usuário',
  'id do usuário',
  'código usuario',
  'cod usuario',
  'employee id',
  'id empleado',
  'id funcionário',
  'id funcionario',
  'código empleado',
  'código funcionário',
];
const OWNER = [
  ...PERSON_ID,
  'owner',
  'owner name',
  'propietario',
  'proprietário',
  'responsable',
  'responsável',
  'vendedor',
  'vendedora',
  'ejecutivo',
  'executivo',
  'asesor',
  'consultor',
  'usuario',
  'usuário',
  'assigned to',
  'assigned by',
  'assigned by id',
  'responsible',
  'responsible id',
  'asignado a',
  'atribuído a',
  'sr id',
  'sales representative',
  'owner email',
  'owner.email',
];
const AGENT = ['agent', 'agente', 'sales agent', 'sales rep', 'representante', 'rep', 'agente de ventas', 'agente de vendas'];
const ACCOUNT_REF = ['account', 'account id', 'account name', 'cuenta', 'conta', 'cliente', 'company', 'empresa', 'compañía'];

export const SYNONYMS: Record<Resource, Record<string, string[]>> = {
  deal: {
    externalId: ['opportunity id', 'deal id', 'id oportunidad', 'id oportunidade', 'id negocio', 'id negócio', ...ID],
    title: [
      'title',
      'título',
      'deal name',
      'opportunity name',
      // Zoho CRM's deal module was "Potentials"
      'potential name',
      'oportunidad',
      'oportunidade',
      'nombre de la oportunidad',
      'nome da oportunidade',
      'negocio',
      'negócio',
      'deal',
      'opportunity',
      'nombre',
      'nome',
      'name',
      'asunto',
      'descripción',
      'descrição',
      'topic',
      'tema',
    ],
    ownerExternalId: ['deal owner', 'opportunity owner', ...OWNER],
    agentExternalId: AGENT,
    isWon: ['is won', 'won', 'ganado', 'ganada', 'ganho', 'ganha', 'closed won'],
    'amount.value': [
      'amount',
      'monto',
      'valor',
      'importe',
      'value',
      'deal amount',
      'close value',
      'total',
      'precio',
      'preço',
      'valor total',
      'monto total',
      'amount value',
      'est revenue',
      'estimated revenue',
      'estimated value',
      'expected revenue',
      'valor estimado',
      'ingresos estimados',
      'receita estimada',
      // Bitrix24's deal field for the amount (its column in a REST or CSV export)
      'opportunity',
    ],
    'amount.currency': [
      'currency',
      'moneda',
      'divisa',
      'moeda',
      'currency code',
      'deal currency code',
      'opportunity currency',
      'amount currency',
      'código de moneda',
    ],
    'amount.exchangeRate': ['exchange rate', 'tipo de cambio', 'taxa de câmbio', 'cotización', 'cotação'],
    closeDate: [
      'close date',
      'fecha de cierre',
      'data de fechamento',
      'fecha cierre',
      'data fechamento',
      'closing date',
      'closed date',
      'cierre',
      'fechamento',
      'fecha de cierre estimada',
      'data de encerramento',
      'est close date',
      'estimated close date',
      'expected close date',
      'won date',
      'fecha ganada',
      'data de ganho',
    ],
    'currentStage.value': [
      'stage',
      'etapa',
      'fase',
      'deal stage',
      'estágio',
      'estagio',
      'stage name',
      'sales stage',
      'etapa de venta',
      'etapa de ventas',
      'fase de venda',
      'estado',
      'status',
      'situación',
      'situação',
    ],
    'currentStage.pipelineName': ['pipeline', 'embudo', 'funil', 'pipeline name', 'embudo de ventas', 'funil de vendas'],
    'currentStage.occurredAt': ['stage date', 'fecha de etapa', 'data da etapa', 'last stage change', 'stage changed'],
  },
  account: {
    externalId: ['account id', 'id cuenta', 'id conta', 'id cliente', 'customer id', 'rut', 'nit', 'cuit', 'rfc', 'cnpj', ...ID],
    name: [
      'name',
      'nombre',
      'nome',
      'account name',
      'account',
      'cuenta',
      'conta',
      'razón social',
      'razão social',
      'razon social',
      'company',
      'company name',
      'empresa',
      'cliente',
      'customer',
    ],
    type: ['type', 'tipo', 'account type', 'tipo de cuenta', 'tipo de conta', 'tipo de cliente'],
  },
  'sales-profile': {
    externalId: [...PERSON_ID, 'legajo', 'matrícula', 'matricula', ...ID],
    email: ['email', 'e-mail', 'correo', 'correo electrónico', 'email address', 'correo electronico', 'mail'],
    'profile.firstName': ['first name', 'firstname', 'nombre', 'nome', 'nombres', 'primer nombre', 'primeiro nome', 'given name'],
    'profile.lastName': ['last name', 'lastname', 'apellido', 'apellidos', 'sobrenome', 'surname', 'family name', 'último nome'],
  },
  activity: {
    externalId: ['activity id', 'id actividad', 'id atividade', ...ID],
    type: ['type', 'tipo', 'activity type', 'tipo de actividad', 'tipo de atividade', 'tasksubtype', 'activity subtype', 'engagement type'],
    ownerExternalId: OWNER,
    'source.name': ['source', 'origen', 'origem', 'direction', 'dirección', 'direção', 'call direction', 'sentido'],
    'associated.accountExternalId': ACCOUNT_REF,
    'associated.dealExternalId': ['deal', 'deal id', 'opportunity', 'opportunity id', 'oportunidad', 'oportunidade', 'negocio', 'negócio'],
  },
};

const ID_WORDS = new Set(['id', 'cod', 'codigo', 'code']);
const NUMBER_WORDS = new Set(['nro', 'num', 'numero']);
const PHONE_WORDS = new Set(['tel', 'telefono', 'phone', 'celular', 'movil', 'cel', 'whatsapp', 'fax']);

/**
 * Headers that name an id of something (`ID Región`, `Cod. Sucursal`, `Customer Code`,
 * `seller_id`, `IDVendedor`): an id word first or last, a whole word (`Idioma`, `Paid` are not);
 * `Nro`/`Número` first too, unless the header is a phone's. A column init takes as the id only when
 * its sample values are unique as well.
 */
export function idLikeHeader(header: string): boolean {
  const words = wordsOf(header);
  if (words.length < 2) return false;
  if (ID_WORDS.has(words[0]!) || ID_WORDS.has(words.at(-1)!)) return true;
  return NUMBER_WORDS.has(words[0]!) && !isPhoneHeader(header);
}

/** A header whose first or last word is an id word (`ID da organização`, `Organização - ID`, `código`, `org_id`, `Company IDs`). */
export function idWordHeader(header: string): boolean {
  const words = wordsOf(header);
  const ends = [words[0], words.at(-1)];
  return ends.some((w) => w !== undefined && (ID_WORDS.has(w) || w === 'ids'));
}

/** A phone number's column (`Número de teléfono`, `Celular`): never an id, however unique its values. */
export const isPhoneHeader = (header: string) => wordsOf(header).some((w) => PHONE_WORDS.has(w));

/** A header's words, folded; camelCase and runs of capitals split first: IDVendedor → id, vendedor. */
function wordsOf(header: string): string[] {
  const spaced = header.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return fold(spaced)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** A single column holding a person's whole name (split into first and last name for sales profiles). */
export const FULL_NAME = [
  'full name',
  'nombre completo',
  'nome completo',
  'name',
  'sales agent',
  'agente',
  'agent',
  'vendedor',
  'usuario',
  'usuário',
  'user',
  'colaborador',
  'employee',
];

/** Stage values that mean a deal is won, for proposing `isWon` from the stage column. */
/**
 * When a closed deal closed, beside an expected close date: Pipedrive's "Deal closed on" (pt-BR
 * "Negócio fechado em"), Dynamics 365's "Actual Close Date".
 */
export const ACTUAL_CLOSE_DATE = [
  'deal closed on',
  'closed on',
  'negocio fechado em',
  'fechado em',
  'actual close date',
  'actual closed date',
  'fecha de cierre real',
  'data de fechamento real',
];

export const WON_STAGE = /\b(won|ganad[oa]|ganh[oa]|gan[oó]|fechad[oa] ganh[oa]|cerrad[oa] ganad[oa]|closed ?won)\b/i;
