// @partner-task-kit/page/screens: everything a workflow's screens import (docs/public-api.md, src/workflows/README.md in
// the app): what the step runner hands them, the form parts, the worker's language, file fields, offers, going back, the
// API client. Re-exports only: the page's build splits its code by module
// (docs/architecture.md#the-page-build), and what a screen does not use is left out of its chunk.
export {
  MissingStepScreenError,
  type EndScreenProps,
  type StepRefusal,
  type StepScreenProps,
  type StepViewProps,
  type WorkflowScreens,
} from './workflows/step-view-props.ts';
export { invalidFields, refused } from './workflows/field-errors.ts';
export { Button } from './ui/button.tsx';
export { CheckField } from './ui/check-field.tsx';
export { Choice, ChoiceGroup } from './ui/choice-group.tsx';
export { FocusHeading } from './ui/focus-heading.tsx';
export { Field, InputField, TextAreaField, type ControlProps, type ControlWiring, type FieldTexts } from './ui/input-field.tsx';
export { Notice } from './ui/notice.tsx';
export { SelectField } from './ui/select-field.tsx';
export { locales, pickLocale, type Locale } from './ui/i18n/locale.ts';
export { useLocale, useShellTexts } from './ui/i18n/locale-context.tsx';
export type { ShellTexts } from './ui/i18n/shell-texts.ts';
export { FileField, type FileFieldState } from './task/file-field.tsx';
export { acceptOf, fileProblem } from './task/file-check.ts';
export { stepOfferQueryOptions } from './api/get-step-offer.ts';
export { useCheckAgain, type CheckAgain } from './api/offer-check-again.ts';
export { useGoBack } from './api/go-back.ts';
export { useApiClient } from './api/api-client-context.tsx';
export type { ApiClient } from './api/api-client.ts';
