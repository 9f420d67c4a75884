// Issue 25, item 1: record kinds from CRM vocabulary, tested by table. File and object names of the
// common CRMs' exports (English, Spanish, Portuguese), a JSON export's record type, and the header
// evidence (`Amount`+`StageName`+`CloseDate` is a deal) each land on the right kind, saying why.
import { describe, expect, test } from 'vitest';
import { guessResource, kindFromFileName } from '../../src/map/propose/guess-resource.js';

describe('kinds from file and object names', () => {
  test.each([
    // Salesforce
    ['Opportunity.csv', 'deal'],
    ['Account.csv', 'account'],
    ['User.csv', 'sales-profile'],
    ['Task.csv', 'activity'],
    ['Event.csv', 'activity'],
    // Dynamics 365
    ['systemuser.csv', 'sales-profile'],
    ['Appointments.csv', 'activity'],
    ['Emails.csv', 'activity'],
    ['Phone Calls.csv', 'activity'],
    ['Opportunities (Dynamics 365).csv', 'deal'],
    // HubSpot
    ['hubspot-crm-exports-all-deals-2024-01-02.csv', 'deal'],
    ['all-companies.csv', 'account'],
    ['owners.json', 'sales-profile'],
    ['calls.csv', 'activity'],
    ['meetings.csv', 'activity'],
    ['notes.csv', 'activity'],
    // Pipedrive
    ['organizations-12345.csv', 'account'],
    ['users.csv', 'sales-profile'],
    ['activities.csv', 'activity'],
    // Zoho
    ['Potentials_001.csv', 'deal'],
    ['Accounts_2024.csv', 'account'],
    // Odoo
    ['crm.lead.csv', 'deal'],
    ['res.partner.csv', 'account'],
    ['res.users.csv', 'sales-profile'],
    ['mail.activity.csv', 'activity'],
    // Spanish and Portuguese
    ['oportunidades.csv', 'deal'],
    ['negócios.csv', 'deal'],
    ['cuentas.csv', 'account'],
    ['empresas.xlsx', 'account'],
    ['vendedores.csv', 'sales-profile'],
    ['usuários.csv', 'sales-profile'],
    ['actividades.csv', 'activity'],
    ['tarefas.csv', 'activity'],
    ['llamadas.csv', 'activity'],
    ['reuniões.csv', 'activity'],
    // public datasets' names
    ['olist_closed_deals_dataset.csv', 'deal'],
    ['sales_pipeline.csv', 'deal'],
    ['sales_teams.csv', 'sales-profile'],
    // issue 33: a sales-profile file needs a seller's name (or the deals pointing at it)
    ['team.csv', 'sales-profile'],
    ['equipe-comercial.csv', 'sales-profile'],
    ['sales_reps.csv', 'sales-profile'],
    ['vendedoras.csv', 'sales-profile'],
    ['hubspot_owners.csv', 'sales-profile'],
  ])('%s → %s', (file, kind) => {
    expect(kindFromFileName(file)?.resource).toBe(kind);
  });

  test.each(['misc.csv', 'export-2024.csv', 'data_dictionary.csv', 'products.csv'])('%s names no kind', (file) => {
    expect(kindFromFileName(file)).toBeUndefined();
  });

  // issue 33: customer records, which the API has no kind for, are named too (and never sellers)
  test.each([
    'Contact.csv', // Salesforce
    'Lead.csv',
    'contacts.csv', // Dynamics 365, HubSpot, Zoho
    'hubspot_contacts.csv',
    'all-contacts.csv',
    'persons-12345.csv', // Pipedrive
    'people-4521-2024.csv',
    'Leads_001.csv',
    'pessoas.csv',
    'contatos.xlsx',
    'contactos.csv',
    'personas.csv',
    'prospectos.csv',
  ])('%s holds customer records: no kind, and the guess says so', (file) => {
    expect(kindFromFileName(file)).toBeUndefined();
    const g = guessResource(['Name', 'Email'], file);
    expect(g.resource).toBeUndefined();
    expect(g.customers).toBe('customer contacts (Name, Email)');
  });
});

describe('kinds from a JSON export’s record type and from header evidence', () => {
  test('Salesforce tree and OData exports name the type of every record', () => {
    const rows = [{ 'attributes.type': 'Opportunity', Name: 'x' }];
    expect(guessResource(['attributes.type', 'Name'], 'export.json', rows)).toMatchObject({
      resource: 'deal',
      reason: 'its records are of type "Opportunity"',
    });
    const odata = [{ '@odata.type': '#Microsoft.Dynamics.CRM.appointment' }];
    expect(guessResource(['@odata.type'], 'x.json', odata).resource).toBe('activity');
  });

  test.each([
    [['Id', 'Name', 'Amount', 'StageName', 'CloseDate', 'IsWon', 'OwnerId'], 'deal', 'Amount, StageName, CloseDate, IsWon'],
    [['Id', 'Subject', 'ActivityDate', 'WhoId', 'WhatId', 'OwnerId', 'IsClosed'], 'activity', 'Subject, ActivityDate, WhoId, WhatId'],
    [['Id', 'Name', 'Industry', 'BillingCity', 'AnnualRevenue', 'OwnerId'], 'account', 'Industry, BillingCity, AnnualRevenue'],
    [['First Name', 'Last Name', 'Primary Email', 'Title', 'Manager'], 'sales-profile', 'First Name, Last Name, Primary Email, Title'],
    [['Topic', 'Owner', 'Est. revenue', 'Est. close date', 'Sales Stage', 'Probability'], 'deal', 'Est. revenue, Est. close date, Sales Stage, Probability'],
    [['Asunto', 'Fecha de vencimiento', 'Duración', 'Responsable'], 'activity', 'Asunto, Fecha de vencimiento, Duración'],
  ])('header %j → %s, naming the evidence', (header, kind, evidence) => {
    const g = guessResource(header, 'export.csv');
    expect(g.resource).toBe(kind);
    expect(g.reason).toContain(`guessed from its header: ${kind}: ${evidence}`);
  });

  test('a header of no kind is not guessed, and the reason says so', () => {
    const g = guessResource(['a', 'b'], 'misc.csv');
    expect(g.resource).toBeUndefined();
    expect(g.reason).toBe("neither its name nor its header is a CRM object's");
  });
});
