import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MASK, maskedValue } from '../../src/components/env-picker/secret-masking.js';

/** What each value shows under a name that says nothing (`undefined`: shown as it is, with no Show button). */
const shownUnderNeutralName = (values: string[]) => values.map((value) => maskedValue('value', value));
const hex32 = '0123456789abcdef'.repeat(2);

describe('maskedValue: well-known key formats', () => {
  // Masked whole, not just the path: only a value masked whole is kept out of history and failure messages.
  it('masks Slack and Discord webhook URLs whole, under any name', () => {
    const webhooks = [
      'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      'hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/abcdEFGH1234',
      'https://discord.com/api/webhooks/123456789012345678/aBc-dEf_123',
      'https://discordapp.com/api/webhooks/123456789012345678/aBc-dEf_123',
      'https://canary.discord.com/api/v10/webhooks/123456789012345678/aBc?wait=true',
      'POST https://discord.com/api/webhooks/1/_token',
    ];
    assert.deepEqual(shownUnderNeutralName(webhooks), webhooks.map(() => MASK));
    assert.deepEqual(webhooks.map((value) => maskedValue('slack_hook', value)), webhooks.map(() => MASK));
  });

  it('masks Slack app-level and rotating tokens, SendGrid keys and Shopify tokens, under any name', () => {
    const secrets = [
      `xapp-1-A0123456789-1234567890123-${hex32}${hex32}`,
      'xoxe-1-My0xLTEyMzQ1Njc4OTAtMTIzNDU2Nzg5MA',
      'xoxe.xoxp-1-Mi0yLTEyMzQ1Njc4OTAtMTIzNDU2Nzg5MA',
      `SG.${'aB1_-'.repeat(4)}cd.${'Ef2-_'.repeat(8)}ghi`,
      `Bearer SG.${'x'.repeat(22)}.${'y'.repeat(43)}`,
      `shpat_${hex32}`,
      `shpca_${hex32.toUpperCase()}`,
      `shppa_${hex32}`,
      `shpss_${hex32}`,
    ];
    assert.deepEqual(shownUnderNeutralName(secrets), secrets.map(() => MASK));
  });

  it('shows look-alikes of those formats as written', () => {
    const lookAlikes = [
      'https://hooks.slack.com/services/',
      'https://hooks.slack.com/services/{team}/{bot}/{secret}',
      'https://slack.com/api/chat.postMessage',
      'https://discord.com/api/v10/channels/123456789012345678/messages',
      'https://discord.com/api/webhooks/123456789012345678',
      'https://discord.com/api/webhooks/{webhook.id}/{webhook.token}',
      'https://api.sendgrid.com/v3/mail/send',
      'https://shop.myshopify.com/admin/api/2024-01/products.json',
      '123e4567-e89b-12d3-a456-426614174000',
      'SG.Singapore',
      `SG.${'a'.repeat(21)}.${'b'.repeat(43)}`,
      `XSG.${'a'.repeat(22)}.${'b'.repeat(43)}`,
      'shpat',
      'shpat_',
      `shpat_${hex32.slice(1)}`,
      `shpat_${'g'.repeat(32)}`,
      'xapp-store',
      'xapp-1-',
      'xoxe-',
    ];
    assert.deepEqual(shownUnderNeutralName(lookAlikes), lookAlikes.map(() => undefined));
  });

  // Linear in the value's length (see the top of secret-masking.ts): a pattern restarting its run at every repeat
  // takes seconds to minutes on these. No time is asserted, as test machines are noisy: the test must complete.
  it('reads long hostile values right', { timeout: 120_000 }, () => {
    const long = (unit: string, prefix = '') => prefix + unit.repeat((200 * 1024) / unit.length);
    const hostile = [
      long('SG.'), long('SG.a'), long('a', 'SG.'), long(`SG.${'a'.repeat(22)}`), long('-', 'SG.'),
      long('xapp-'), long('xapp-1-'), long('xapp-1-A-'), long('A1', 'xapp-1-'), long('-A', 'xapp-1'),
      long('xoxe-'), long('shpat_'), long('g', 'shpat_'), long('shp'),
      long('hooks.slack.com/services/T'), long('T', 'hooks.slack.com/services/'), long('/B', 'hooks.slack.com/services/Ta'),
      long('discord.com/api/webhooks/1'), long('1', 'discord.com/api/webhooks/'), long('v1/', 'discord.com/api/'),
      long('discordapp.com/api/'),
    ];
    assert.deepEqual(shownUnderNeutralName(hostile), [
      undefined, undefined, undefined, undefined, undefined,
      undefined, undefined, undefined, undefined, undefined,
      MASK, undefined, undefined, undefined,
      undefined, undefined, undefined,
      undefined, undefined, undefined,
      undefined,
    ]);
  });
});
