// Words CRMs write where the API wants its own: currency names (`US Dollar`, `Real brasileño`) for
// ISO-4217 codes, activity kinds for CALL/EMAIL/MEET, account kinds for COMPANY/CONTACT/CLIENT, directions for INBOUND/OUTBOUND, a deal's
// status (`Ganho`/`Perdido`/`Aberto`, HubSpot's `closedwon`) for isWon, and `1`/empty checkboxes for
// booleans. init proposes a value map only when every sampled value has a word here,
// so nothing is guessed: a value the sample did not show is a row error naming it, not a silent default.
import { SEEN_VALUES } from '../../contract/fields.js';
import { squash } from './synonyms.js';
import { fold, parseBoolean } from '../transforms/text.js';

const table = (entries: Record<string, string>) => new Map(Object.entries(entries).flatMap(([code, names]) => names.split('|').map((n) => [squash(n), code])));

const CURRENCY_NAMES = table({
  USD: 'US Dollar|U.S. Dollar|United States Dollar|Dollar|Dólar|Dólar estadounidense|Dólar americano|Dólar norte-americano|Dólares',
  EUR: 'Euro|Euros',
  BRL: 'Real|Reais|Real brasileño|Real brasileiro|Brazilian Real',
  CLP: 'Peso chileno|Chilean Peso|Pesos chilenos',
  MXN: 'Peso mexicano|Mexican Peso|Pesos mexicanos',
  COP: 'Peso colombiano|Colombian Peso|Pesos colombianos',
  ARS: 'Peso argentino|Argentine Peso|Pesos argentinos',
  UYU: 'Peso uruguayo|Uruguayan Peso',
  PEN: 'Sol|Soles|Sol peruano|Nuevo sol|Peruvian Sol',
  BOB: 'Boliviano|Bolivianos',
  PYG: 'Guaraní|Guaranies|Paraguayan Guarani',
  GTQ: 'Quetzal|Quetzales',
  CRC: 'Colón costarricense|Costa Rican Colon',
  GBP: 'Pound Sterling|British Pound|Libra esterlina',
  CAD: 'Canadian Dollar|Dólar canadiense',
  JPY: 'Yen|Japanese Yen',
  CHF: 'Swiss Franc|Franco suizo',
  CNY: 'Yuan|Chinese Yuan|Renminbi',
});

const ACTIVITY_TYPES = table({
  CALL: 'Call|Calls|Phone Call|Phone Calls|Phonecall|Llamada|Llamadas|Ligação|Ligações|Telefonema',
  EMAIL: 'Email|Emails|E-mail|E-mails|Mail|Correo|Correos|Correo electrónico',
  MEET: 'Meeting|Meetings|Appointment|Appointments|Event|Events|Reunión|Reuniones|Reunião|Reuniões|Cita|Citas|Visita|Evento|Eventos',
});

// an account's kind in the API's words; a relationship (Prospect, Competitor, Partner) has none
const ACCOUNT_TYPES = table({
  CLIENT: 'Client|Clients|Customer|Customers|Cliente|Clientes|Cliente final',
  COMPANY: 'Company|Companies|Organization|Organisation|Organização|Organización|Business|Empresa|Empresas|Compañía|Companhia',
  CONTACT: 'Contact|Contacts|Person|Individual|Contacto|Contactos|Contato|Contatos|Persona|Pessoa|Pessoa física|Persona física',
});

const DIRECTIONS = table({
  INBOUND: 'Inbound|Incoming|Received|Entrante|Entrada|Recibido|Recebido|Recebida',
  OUTBOUND: 'Outbound|Outgoing|Sent|Saliente|Salida|Enviado|Enviada|Saída',
});

// a deal's status: won is true; lost, open and deleted are not won
const DEAL_STATUS = table({
  true: 'Won|Closed Won|closedwon|Ganho|Ganha|Fechado ganho|Fechada ganha|Ganado|Ganada|Cerrado ganado|Cerrada ganada|Gagné|Gewonnen',
  false:
    'Lost|Closed Lost|closedlost|Open|Opened|Deleted|Perdido|Perdida|Fechado perdido|Fechada perdida|Aberto|Aberta|Em aberto|' +
    'Excluído|Excluída|Cerrado perdido|Cerrada perdida|Abierto|Abierta|Eliminado|Eliminada|Perdu|Ouvert|Verloren|Offen|' +
    'In progress|Em andamento|En curso|En progreso|Pending|Pendiente|Pendente',
});

/** Every distinct sampled value through the table, or undefined when one has no entry. */
function mapAll(values: readonly string[], words: Map<string, string>): Record<string, string> | undefined {
  const distinct = [...new Set(values)];
  if (!distinct.length) return undefined;
  const map: Record<string, string> = {};
  for (const v of distinct) {
    const code = words.get(squash(v));
    if (!code) return undefined;
    map[v] = code;
  }
  return map;
}

export const currencyNameMap = (values: readonly string[]) => mapAll(values, CURRENCY_NAMES);
/**
 * Activity types in the API's words: every word init knows mapped (`call` → CALL), the others mapped
 * to themselves (`task`: sent as written, which the API may or may not take) and said; undefined
 * when no word is known.
 */
export function activityTypeMap(column: string, values: readonly string[]): { map: Record<string, string>; notes: string[] } | undefined {
  const distinct = [...new Set(values)];
  const map = Object.fromEntries(distinct.map((v) => [v, ACTIVITY_TYPES.get(squash(v)) ?? v]));
  const kept = distinct.filter((v) => !ACTIVITY_TYPES.has(squash(v))).map((v) => JSON.stringify(v));
  if (kept.length === distinct.length) return undefined;
  const seen = SEEN_VALUES.activityType.join(', ');
  const why = `is none of the types the API shows (${seen}): sent as written; map it to one of them if it is one`;
  return { map, notes: kept.length ? [`type: "${column}": ${kept.join(', ')} ${why}`] : [] };
}
export const directionMap = (values: readonly string[]) => mapAll(values, DIRECTIONS);
export const accountTypeMap = (values: readonly string[]) => mapAll(values, ACCOUNT_TYPES);

/** A deal status column (`Won/Lost/Open`, `Ganho/Perdido/Aberto`, `closedwon/closedlost`) as isWon, when every sampled value is one and one says won or lost. */
export function dealStatusMap(values: readonly string[]): Record<string, boolean> | undefined {
  const map = mapAll(values, DEAL_STATUS);
  const decided = map && Object.keys(map).some((v) => map[v] === 'true' || /lost|perd|closed/i.test(fold(v)));
  return decided ? Object.fromEntries(Object.entries(map).map(([v, won]) => [v, won === 'true'])) : undefined;
}
/** The activity type a file name or record type names (`Emails.csv` → EMAIL). */
export const activityTypeOf = (word: string) => ACTIVITY_TYPES.get(squash(word));

/** `1`/`true`/`Sí`… as booleans, when every sampled value is one (the map init writes for a checkbox column). */
export function booleanMap(values: readonly string[]): Record<string, boolean> | undefined {
  const distinct = [...new Set(values)];
  const map: Record<string, boolean> = {};
  for (const v of distinct) {
    const b = parseBoolean(v);
    if (b === undefined) return undefined;
    map[v] = b;
  }
  return distinct.length ? map : undefined;
}
