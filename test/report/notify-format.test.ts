// Which body a notification URL gets when --notify-format is auto (issue 27, item 7): a Teams
// Workflows or connector URL an Adaptive Card, Slack's {text}, anything else the JSON summary. By the
// host's name alone, and only a whole label: a look-alike host is not taken for Microsoft's or Slack's.
import { expect, test } from 'vitest';
import { notifyFormatFor } from '../../src/report/notify-body.js';

test.each([
  ['https://prod-12.westus.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=x', 'teams'],
  ['https://default0a1b2c.3d.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/abc/triggers/manual/paths/invoke?sig=x', 'teams'],
  ['https://contoso.webhook.office.com/webhookb2/abc@def/IncomingWebhook/123/456', 'teams'],
  ['https://outlook.office.com/webhook/abc', 'teams'],
  ['https://PROD-1.WESTEUROPE.LOGIC.AZURE.COM/workflows/x', 'teams'],
  ['https://hooks.slack.com/services/T000/B000/XXXX', 'slack'],
  ['https://example.com/hooks/x', 'json'],
  ['https://evil-logic.azure.com/workflows/x', 'json'],
  ['https://logic.azure.com.example.net/workflows/x', 'json'],
  ['https://hooks.slack.com.example.net/services/x', 'json'],
  ['http://127.0.0.1:8080/hook', 'json'],
])('%s → %s', (url, format) => {
  expect(notifyFormatFor(url, 'auto')).toBe(format);
});

test('--notify-format wins over the URL', () => {
  expect(notifyFormatFor('https://hooks.slack.com/services/T/B/X', 'json')).toBe('json');
  expect(notifyFormatFor('http://127.0.0.1:8080/hook', 'teams')).toBe('teams');
});
