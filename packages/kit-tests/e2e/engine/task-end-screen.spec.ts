import { expect, test } from '../portal-fixtures';
import { acknowledgePolicy, answerQuiz, beginTraining, correctAnswers, sign } from '../task-steps';

/**
 * The end screen is a chunk of its own (packages/page/src/task/end-screen-loader.ts), fetched while the worker is on the
 * step whose save ends the attempt, as the next step's screen is on the steps before
 * (docs/architecture.md#a-workflow-is-a-folder): the press shows the done screen with no download after it.
 */
test('the done screen needs no download once the worker is on the last step', async ({ portal, page }) => {
  await portal.open();
  const { frame } = portal;
  await beginTraining(frame);
  await acknowledgePolicy(frame);
  const endScreenFetched = page.waitForResponse((response) => /\/assets\/end-screen-[\w-]+\.js$/.test(response.url()));
  await answerQuiz(frame, correctAnswers);
  await expect(frame.getByRole('heading', { name: 'Sign the training record' })).toBeVisible();
  await endScreenFetched;
  // Any script asked for from now on fails, as it would on a connection lost for the page's files alone.
  const asked: string[] = [];
  await page.route('**/assets/**', (route) => {
    asked.push(new URL(route.request().url()).pathname);
    return route.abort('internetdisconnected');
  });
  await sign(frame, 'Ana López');
  await expect(frame.getByText('We sent the portal word that you finished.')).toBeVisible();
  expect(asked).toEqual([]);
});
