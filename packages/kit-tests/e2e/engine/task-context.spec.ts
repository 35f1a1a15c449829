import { expect, test } from '../portal-fixtures';

test('an invalid context shows the error screen naming each bad parameter, and calls no API', async ({ portal, page }) => {
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/')) apiCalls.push(request.url());
  });
  const { launchUrl } = portal.assignment;
  const broken = new URL(launchUrl);
  broken.searchParams.set('wxWorkerUuid', 'not-a-uuid');
  broken.searchParams.delete('wxCompanyUuid');
  await portal.open(broken.toString());
  const { frame } = portal;
  await expect(frame.getByRole('heading', { name: 'This task link is incomplete' })).toBeVisible();
  await expect(frame.getByText('wxWorkerUuid is not a UUID (received “not-a-uuid”).')).toBeVisible();
  await expect(frame.getByText('wxCompanyUuid is missing.')).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'For partner developers' })).toBeVisible();
  await expect(frame.getByText('/preview')).toBeVisible();
  await portal.checkAccessibility('invalid context');
  expect(apiCalls).toEqual([]);
});

test('opened outside an iframe, the page works and says so discreetly', async ({ portal, page }) => {
  await page.goto(portal.assignment.launchUrl);
  await expect(page.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('Opened outside the worker portal');
  await expect(page.getByRole('contentinfo')).toContainText('Emulator mode');
  await portal.checkAccessibility('standalone welcome');
});

test.describe('in Spanish', () => {
  test.use({ locale: 'es-ES' });
  test('the page speaks the browser language', async ({ portal }) => {
    await portal.open();
    await expect(portal.frame.getByRole('heading', { name: 'Formación en seguridad laboral' })).toBeVisible();
    await expect(portal.frame.getByText('Paso 1 de 4')).toBeVisible();
    await expect(portal.frame.locator('html')).toHaveAttribute('lang', 'es');
    await portal.checkAccessibility('welcome in Spanish');
  });
});
