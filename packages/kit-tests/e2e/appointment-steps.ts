import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { addDocumentPhotos, photoTexts } from './document-photos';

/** work-authorization in English as a citizen, up to its document photos added (the step not saved yet). */
export async function addPhotosAsCitizen(frame: FrameLocator): Promise<void> {
  await expect(frame.getByRole('heading', { name: 'Are you a citizen?' })).toBeVisible();
  await expect(frame.locator('html')).toHaveAttribute('data-interactive', '');
  await frame.getByRole('radio', { name: 'Yes' }).check();
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('textbox', { name: 'National ID number' }).fill('ZX9081726');
  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByRole('heading', { name: 'Photos of your document' })).toBeVisible();
  await addDocumentPhotos(frame, photoTexts.en);
}

/**
 * work-authorization in English up to its appointment step, as a citizen with the given postcode; returns the preview's
 * "Partner backend" panel, which lists the offer requests and chooses what the stand-in answers.
 */
export async function reachAppointment(frame: FrameLocator, page: Page, postcode = '28001'): Promise<Locator> {
  await addPhotosAsCitizen(frame);
  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
  await frame.getByRole('textbox', { name: 'Postcode' }).fill(postcode);
  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByRole('heading', { name: 'Book a verification appointment' })).toBeVisible();
  return page.getByRole('region', { name: 'Partner backend' });
}

/** The panel's choice of what the stand-in answers the next offer requests with. */
export const offerModes = (backend: Locator) => backend.getByRole('group', { name: 'The next offer requests are answered with' });
