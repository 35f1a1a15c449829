// Helpers for an app's tests of its workflows: a screen rendered as the page renders it, and a task to render it in.
export { renderScreen, type RenderScreenOptions } from './render-screen.ts';
export { pageContext, readyTaskView } from './task-fixtures.ts';
