// The task fixtures of the app's tests (@partner-task-kit/testing), for the engine's page tests too.
export { pageContext, readyTaskView } from '@partner-task-kit/testing';
