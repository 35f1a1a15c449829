// The server's rule for a step a task cannot take, in a module of its own: submit-step.ts loads it with a dynamic
// import() on its rare path, so it stays out of the first screen's JavaScript. The contract's entry itself, imported
// dynamically, would bring every export of it into that chunk.
export { stepRefusal } from '@partner-task-kit/workflow/contract';
