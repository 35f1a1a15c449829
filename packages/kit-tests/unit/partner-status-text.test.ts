import { describe, expect, it } from 'vitest';
import { cleanPartnerStatus } from '@partner-task-kit/workflow/contract/partner-status-text';
import { labelLength, PARTNER_LABEL_MAX } from '@partner-task-kit/workflow/contract/partner-task-update';

const RIGHT_TO_LEFT_OVERRIDE = '\u202e';
const LONE_HIGH_SURROGATE = '\ud83e';
/** The details of a partnerStatus as they are sent, cleaned. */
const cleanPartnerText = (details: string) => cleanPartnerStatus({ details }).details!;

describe('text sent to the platform in partnerStatus', () => {
  it('drops a right-to-left override, so the name reads as typed', () => {
    expect(cleanPartnerText(`Signed as "Ana ${RIGHT_TO_LEFT_OVERRIDE}zepóL".`)).toBe('Signed as "Ana zepóL".');
  });

  it('replaces a lone surrogate with U+FFFD and keeps whole pairs', () => {
    const cleaned = cleanPartnerText(`Ana${LONE_HIGH_SURROGATE} López 🦺`);
    expect(cleaned).toBe('Ana\ufffd López 🦺');
    // Well-formed: it survives a UTF-8 round trip unchanged.
    expect(Buffer.from(cleaned, 'utf8').toString('utf8')).toBe(cleaned);
  });

  it('drops every bidirectional control and C0 or C1 control but tab and newline, which it keeps', () => {
    const bidi = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
    expect(cleanPartnerText(`a${bidi.join('')}b`)).toBe('ab');
    expect(cleanPartnerText('a\u0000\u0007\u001b[31mb\u007f\u0085\u009bc')).toBe('a[31mbc');
    expect(cleanPartnerText('line one\r\nline two\rline three\tend')).toBe('line one\nline two\nline three\tend');
  });

  it('normalises to NFC, so one name is one sequence of code points', () => {
    expect(cleanPartnerText('Lo\u0301pez')).toBe('L\u00f3pez');
  });

  it('keeps the label within 32 characters after normalisation lengthens it', () => {
    // U+0958 is excluded from composition: NFC turns it into two code points.
    const label = `Step 1 of 4 · ${'\u0958'.repeat(18)}`;
    expect(labelLength(label)).toBe(32);
    const cleaned = cleanPartnerStatus({ label, details: 'd' }).label!;
    expect(labelLength(cleaned)).toBe(PARTNER_LABEL_MAX);
    expect(cleaned.endsWith('…')).toBe(true);
  });

  it('leaves a label already over 32 characters for the schema to refuse, rather than hide the bug that built it', () => {
    expect(cleanPartnerStatus({ label: 'x'.repeat(33) }).label).toBe('x'.repeat(33));
  });

  it('cleans the label and the details, and leaves the colour and absent fields as they are', () => {
    expect(cleanPartnerStatus({ label: `Done${RIGHT_TO_LEFT_OVERRIDE}`, color: 'success', details: `x${LONE_HIGH_SURROGATE}` })).toEqual({
      label: 'Done',
      color: 'success',
      details: 'x\ufffd',
    });
    expect(cleanPartnerStatus({ color: 'neutral' })).toEqual({ color: 'neutral' });
  });
});
