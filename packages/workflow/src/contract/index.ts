// @partner-task-kit/workflow/contract: the wire schemas and types the page, the server and tests share
// (docs/public-api.md): the task API's requests and answers, its error codes, its headers, and the platform's update
// record. Compiled into both sides, like the rest of the package.
export * from './api-errors.ts';
export * from './contract-fields.ts';
export * from './first-screen-files.ts';
export * from './http-headers.ts';
export * from './partner-status-text.ts';
export * from './partner-task-update.ts';
export * from './preview-config.ts';
export * from './session.ts';
export * from './status-updates.ts';
export * from './step-offer.ts';
export * from './step-refusal.ts';
export * from './step-rules.ts';
export * from './step-submission.ts';
export * from './task-context.ts';
export * from './task-status.ts';
export * from './task-updates.ts';
export * from './task-uploads.ts';
export * from './task-view.ts';
export * from './worker-message.ts';
