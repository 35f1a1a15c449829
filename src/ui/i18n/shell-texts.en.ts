import type { ShellTexts } from './shell-texts';

export const shellTextsEn: ShellTexts = {
  documentTitle: 'Onboarding task',
  opening: 'Opening your task…',
  standalone: 'Opened outside the worker portal: the portal will not be told when you finish.',
  emulator: 'Emulator mode: progress goes to a local test copy of the platform, not to the real one.',
  contextError: {
    title: 'This task link is incomplete',
    intro: 'The page needs four values from the worker portal. These are missing or wrong:',
    missing: (param) => `${param} is missing.`,
    invalid: (param, received) => `${param} is not a UUID (received “${received}”).`,
    repeated: (param) => `${param} appears more than once.`,
    workerHint: 'If you are a worker: go back to your task list and open the task again. If this keeps happening, tell your employer.',
    developerHintTitle: 'For partner developers',
    developerHint:
      'Open the preview portal at /preview to launch the task with test values, or turn on “Append task context” in the partner task settings so the portal appends wxWorkerUuid, wxAssignedTaskUuid, wxTaskFlowUuid and wxCompanyUuid to the iframe URL.',
  },
  loadError: { title: 'We could not open your task', retry: 'Try again' },
  progress: (step, total) => `Step ${step} of ${total}`,
  progressLabel: 'Progress',
  saving: 'Saving…',
  saved: 'Saved.',
  errors: {
    network: 'We could not reach the server. Check your connection, then try again: your answers are still here.',
    server: 'Something went wrong on our side and nothing was saved. Please try again in a moment.',
    rate_limited: 'Too many attempts in a short time. Wait a minute, then try again.',
    session: 'Your session ended. Reload the page to continue where you left off.',
    task_changed: 'This task changed in another window. We reloaded your progress: please check this step again.',
    invalid: 'Some answers are missing or not valid. Check the highlighted fields.',
    unknown_company:
      "This task is not set up for your company yet, so it cannot be done here. Tell your company's administrator or the person who assigned it; nothing was saved.",
    task_rejected:
      'This task is not known to the portal, so it cannot be done here. Open it again from your task list in the portal; if it happens again, tell the person who assigned it.',
    context_mismatch:
      'This task was already opened with other details. Open it again from your task list in the portal; if it happens again, tell the person who assigned it, who can free it for you.',
    unknown: 'Something unexpected happened. Reload the page to continue where you left off.',
  },
  done: {
    title: 'All done',
    body: (date) => `You completed this task on ${date}. You can now continue in the portal.`,
    portalNotified: 'The portal has been told that you finished.',
    standaloneNotice: 'This page is not inside the worker portal, so no portal was told.',
  },
  failed: {
    title: 'This task could not be completed',
    attemptsExhausted: (max) => `The quiz was not passed in ${max} attempts. You can start the training again from the beginning.`,
    other: 'This attempt ended with a problem. You can start again from the beginning.',
  },
  restart: {
    startAgain: 'Start again',
    startOver: 'Start over from the beginning',
    confirm: 'Starting again clears the answers of this attempt.',
    yes: 'Yes, start again',
    cancel: 'Cancel',
  },
  loadingStep: 'Loading this step…',
};
