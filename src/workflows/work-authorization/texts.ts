import type { documentTypes, WorkAuthorizationStepId } from './definition';

/** Every text the worker sees in this workflow; one file per language. */
export interface WorkAuthorizationTexts {
  stepTitles: Record<WorkAuthorizationStepId, string>;
  submit: string;
  citizenship: { intro: string; legend: string; yes: string; no: string; error: string };
  nationalId: {
    label: string;
    hint: string;
    error: string;
    /** A value is saved: it is never shown (only its last two characters), so the worker types it again. */
    saved(lastTwo: string): string;
  };
  document: {
    intro: string;
    typeLabel: string;
    typePlaceholder: string;
    typeError: string;
    types: Record<(typeof documentTypes)[number], string>;
    expiryLabel: string;
    expiryHint: string;
    expiryError: string;
    /** The step's `check`: the document must still be valid after today. */
    expiryPast: string;
  };
  photos: {
    intro: string;
    frontLabel: string;
    frontHint: string;
    backLabel: string;
    backHint: string;
    /** Continue pressed with no photo of that side. */
    missingFront: string;
    missingBack: string;
    /** Continue pressed while that side's photo is still on its way. */
    stillUploading: string;
    /** The server refused the answer (400 invalid_step_data naming the side): the upload is no longer usable. */
    refused: string;
  };
  postcode: { label: string; hint: string; error: string };
  verification: { what: string; howLong: string; mayClose: string; watching: string };
  done: { title: string; body: string; next: string };
}
