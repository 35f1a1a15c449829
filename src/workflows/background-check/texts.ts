import type { BackgroundCheckStepId } from './definition';

/** Every text the worker sees in this workflow; one file per language. */
export interface BackgroundCheckTexts {
  stepTitles: Record<BackgroundCheckStepId, string>;
  consent: {
    intro: string;
    nameLabel: string;
    nameHint: string;
    nameError: string;
    agreeLabel: string;
    agreeError: string;
    submit: string;
  };
  check: {
    what: string;
    howLong: string;
    mayClose: string;
    watching: string;
  };
}
