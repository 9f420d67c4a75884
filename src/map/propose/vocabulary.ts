// The words CRMs use for each record kind, as data: object and file names (Salesforce, Dynamics 365,
// HubSpot, Pipedrive, Zoho, Odoo; English, Spanish, Portuguese) and the header names that only a
// file of that kind carries. Compared after `squash` (no case, accents, spaces or punctuation), so
// `Est. close date`, `EstCloseDate` and `est_close_date` are one name. init's kind guess reads it
// (guess-resource.ts); the table test checks every CRM's objects land on their kind. Customer
// records (contacts, people, leads) are named here too: the API has no kind for them, and init
// leaves them out rather than take customers for sellers.
import type { Resource } from '../../contract/resources.js';

const words = (list: string) => list.split('|');

/** Object and file names: `Opportunity.csv`, `crm.lead`, `closed_deals`, `attributes.type` "Opportunity". */
export const KIND_NAMES: Record<Resource, readonly string[]> = {
  deal: words(
    'deal|deals|opportunity|opportunities|oportunidad|oportunidades|oportunidade|oportunidades|' +
      'negocio|negocios|negócio|negócios|potential|potentials|crm.lead|crm_lead|pipeline|venta|ventas|' +
      'venda|vendas|sales pipeline',
  ),
  account: words(
    'account|accounts|company|companies|organization|organizations|organisation|organisations|' +
      'organizacion|organizaciones|organização|organizações|cuenta|cuentas|conta|contas|empresa|' +
      'empresas|res.partner|res_partner|partner|partners|customer|customers|cliente|clientes',
  ),
  'sales-profile': words(
    'user|users|systemuser|systemusers|owner|owners|res.users|res_users|usuario|usuarios|usuário|' +
      'usuários|vendedor|vendedores|vendedora|seller|sellers|sales rep|sales reps|sales team|' +
      'sales teams|sales agent|sales agents|agent|agents|employee|employees|colaborador|colaboradores|' +
      'sales profile|sales profiles|team|teams|equipe|equipes|equipo|equipos|staff|salesperson|salespeople|' +
      'sales representative|sales representatives|representante|representantes|vendedoras|rep|reps',
  ),
  activity: words(
    'activity|activities|actividad|actividades|atividade|atividades|task|tasks|tarea|tareas|tarefa|' +
      'tarefas|event|events|evento|eventos|appointment|appointments|cita|citas|email|emails|e-mail|' +
      'e-mails|correo|correos|phonecall|phone call|phone calls|call|calls|llamada|llamadas|ligação|' +
      'ligações|meeting|meetings|reunión|reuniones|reunião|reuniões|note|notes|nota|notas|mail.activity|' +
      'mail_activity|engagement|engagements',
  ),
};

/**
 * Customer records: the people a CRM sells to (HubSpot and Salesforce contacts and leads, Pipedrive
 * persons/people, `pessoas`, `contactos`). Not `crm.lead`: Odoo's is a deal, and the pair of words
 * is read first.
 */
export const CUSTOMER_NAMES: readonly string[] = words(
  'contact|contacts|contacto|contactos|contato|contatos|person|persons|people|persona|personas|pessoa|' +
    'pessoas|lead|leads|prospect|prospects|prospecto|prospectos|cliente potencial|clientes potenciales|' +
    'clientes potenciais|subscriber|subscribers',
);

/**
 * Headers only a file of sellers carries: what a CRM keeps of its users (a login, a role, a manager,
 * a quota). A person's name, e-mail, phone or job title is on every contact too, and is no evidence.
 */
export const SELLER_HEADERS: readonly string[] = words(
  'username|user name|login|alias|userroleid|user role|role|managerid|manager|isactive|is active|' +
    'regional_office|regional office|quota|sales team|territory|gerente|supervisor|perfil de acesso|' +
    'nombre de usuario|nome de usuário|is licensed|license|licença|licencia',
);

/** Header names only a file of that kind carries (a deal's `Amount`+`StageName`+`CloseDate`). */
export const KIND_HEADERS: Record<Resource, readonly string[]> = {
  deal: words(
    'amount|stagename|dealstage|deal stage|stage|closedate|close date|iswon|is won|isclosed|' +
      'probability|forecastcategory|forecastcategoryname|forecast category|est. revenue|' +
      'estimated revenue|est. close date|estimated close date|actual revenue|actual close date|' +
      'sales stage|won_date|won date|won_time|ganho em|fecha de ganado|data de ganho|expected_close_date|expected close date|expected_revenue|' +
      'dealname|deal name|opportunity name|close_value|pipeline|monto|etapa|fecha de cierre|' +
      'data de fechamento|probabilidad|probabilidade|estágio|valor estimado',
  ),
  account: words(
    'industry|billingstreet|billingcity|billingstate|billingcountry|billingpostalcode|shippingstreet|' +
      'numberofemployees|employees|annualrevenue|annual revenue|website|account name|accountsource|' +
      'sicdesc|dunsnumber|main phone|sector|year_established|razón social|razão social|cnpj|rut|nit|' +
      'cuit|rfc|industria|indústria|sitio web|empleados|funcionários|domain|company name',
  ),
  'sales-profile': words(
    'firstname|first name|lastname|last name|username|user name|primary email|manager|managerid|' +
      'isactive|userroleid|alias|department|title|nombre|apellido|apellidos|sobrenome|regional_office|' +
      'cargo|gerente',
  ),
  activity: words(
    'subject|activitydate|activity date|activity type|activitytype|duedate|due date|start time|' +
      'end time|starttime|endtime|direction|calltype|calldurationinseconds|calldisposition|whoid|whatid|' +
      'regarding|actual start|actual end|duration|location|tasksubtype|date sent|from|to|cc|bcc|asunto|' +
      'assunto|fecha de vencimiento|duración|duração|call duration|meeting type',
  ),
};

/** A won deal's date (`Ganho em`, `Won time`, `Fecha de ganado`): filled when the deal is won. */
export const WON_DATE_HEADERS: readonly string[] = words(
  'won date|won_date|won time|won_time|date won|won on|closed won date|won at|fecha ganada|fecha de ganado|' +
    'fecha ganado|ganado el|ganado en|data de ganho|data ganho|ganho em|ganhou em|data do ganho',
);
