import { labelLength, PARTNER_LABEL_MAX, type PartnerTaskUpdate } from './partner-task-update.ts';

/**
 * Bidirectional controls (embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069, the marks U+200E, U+200F
 * and U+061C), and C0 and C1 controls (\p{Cc}) but tab and newline. A right-to-left override in a typed name would
 * make the admin's panel show the name, or the rest of the details, in another order than the worker typed them.
 */
const INVISIBLE_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]|(?![\t\n])\p{Cc}/gu;

/** Half of a surrogate pair without its other half (`u`: a whole pair is one code point, never matched here). */
const LONE_SURROGATE = /[\ud800-\udfff]/gu;

/**
 * Text the platform shows an admin (docs/platform.md#partner-task-update-record partnerStatus), made safe to show: lone surrogates become U+FFFD, a
 * carriage return a newline, the controls above are dropped, and the rest is NFC, so one name is stored and compared
 * as one sequence of code points whichever keyboard typed it.
 */
function cleanPartnerText(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd').replace(/\r\n?/g, '\n').replace(INVISIBLE_CONTROLS, '').normalize('NFC');
}

/**
 * The partnerStatus of an update with its texts cleaned. NFC can lengthen a text (a few letters decompose), so a label
 * within the 32 characters of docs/platform.md#partner-task-update-record and docs/platform.md#limits that cleaning pushed over is cut again, with an ellipsis as `fitLabel`
 * does. One over them before cleaning is not cut, for the record's schema to refuse: the code that built it is wrong.
 */
export function cleanPartnerStatus(status: NonNullable<PartnerTaskUpdate['partnerStatus']>): typeof status {
  const { label, details, ...rest } = status;
  return {
    ...rest,
    ...(label === undefined ? {} : { label: cleanLabel(label) }),
    ...(details === undefined ? {} : { details: cleanPartnerText(details) }),
  };
}

function cleanLabel(label: string): string {
  const cleaned = cleanPartnerText(label);
  if (labelLength(cleaned) <= PARTNER_LABEL_MAX || labelLength(label) > PARTNER_LABEL_MAX) return cleaned;
  return `${Array.from(cleaned)
    .slice(0, PARTNER_LABEL_MAX - 1)
    .join('')
    .trimEnd()}…`;
}
