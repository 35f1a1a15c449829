/**
 * Where the build writes each prerendered first screen (the task page's HTML with the first step of one workflow in
 * one language, packages/vite-plugin) and where the server looks for it when a link opens the page. Shared, so the two
 * cannot name it differently.
 */
export const FIRST_SCREENS_DIRECTORY = 'first-screens';

export function firstScreenFile(workflowId: string, locale: string): string {
  return `${FIRST_SCREENS_DIRECTORY}/${workflowId}.${locale}.html`;
}

/**
 * The page in one language with the neutral "opening your task" screen in it (no step, no progress, no button), which
 * the server answers a link of a task already under way or ended with (docs/architecture.md#how-a-link-is-answered).
 * In a folder of its own, so no workflow's id can name it.
 */
export function openingScreenFile(locale: string): string {
  return `${FIRST_SCREENS_DIRECTORY}/opening/${locale}.html`;
}
