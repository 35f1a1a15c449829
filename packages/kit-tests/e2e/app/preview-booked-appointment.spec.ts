import { offerModes, reachAppointment } from '../appointment-steps';
import { expect, openElsewhere, test } from '../preview-fixtures';

/**
 * What the worker booked stays on the screens after the appointment step, and an empty offer is not final
 * (docs/connecting-your-backend.md#offers, docs/api.md#get-apitaskstepsstepidoffer): the appointment comes from the
 * server's stored answer and the offer it kept, so a page opened afresh in another browser shows it too.
 */

// The device is in New York; the appointment is in Madrid, and is shown at Madrid's time with its zone named.
test.use({ timezoneId: 'America/New_York' });

const bookedTime = /Monday, January 7, 2030 at 9:00\sAM GMT\+1/;

test('the booked appointment shows while the partner verifies and once done, also in a browser opened afresh', async ({
  preview,
  page,
  browser,
}) => {
  await preview.open();
  await preview.assign({ workflow: 'work-authorization', title: 'Work authorization' });
  const backend = await reachAppointment(preview.frame, page);
  const slot = preview.frame.getByRole('radio', { name: /Verification centre, 28001/ }).first();
  await slot.check();
  await preview.frame.getByRole('button', { name: 'Continue' }).click();
  await expect(preview.frame.getByRole('heading', { name: 'We are verifying your documents' })).toBeVisible();
  const booked = preview.frame.getByRole('region', { name: 'Your appointment' });
  // In Madrid's time, its zone named, though the device is in New York.
  await expect(booked).toContainText(bookedTime);
  await expect(booked).toContainText('Verification centre, 28001');
  await preview.checkAccessibility('waiting with the booked appointment');

  const taskUrl = new URL((await preview.iframe.getAttribute('src'))!, page.url()).href;
  const elsewhere = await openElsewhere(browser, taskUrl, { timezoneId: 'Asia/Tokyo' });
  try {
    await expect(elsewhere.getByRole('heading', { name: 'We are verifying your documents' })).toBeVisible();
    await expect(elsewhere.getByRole('region', { name: 'Your appointment' })).toContainText(bookedTime);

    // The partner's backend reports the verification passed: the task is done, and the appointment still shows.
    await backend.getByRole('button', { name: 'Report passed' }).click();
    await expect(page.getByRole('heading', { name: 'Task finished: continuing to the next task' })).toBeVisible();
    await elsewhere.reload();
    await expect(elsewhere.getByRole('heading', { name: 'Your work authorization is verified' })).toBeVisible();
    const done = elsewhere.getByRole('region', { name: 'Your appointment' });
    await expect(done).toContainText(bookedTime);
    await expect(done).toContainText('Verification centre, 28001');
  } finally {
    await elsewhere.context().close();
  }
  // One request to the stand-in: the screens after the step read the kept offer.
  await expect(backend.getByRole('list', { name: 'Offer requests, newest first' }).getByRole('listitem')).toHaveCount(1);
});

test('no slots: "Check again" opens after the step’s wait and finds the slots the backend has now', async ({ preview, page }) => {
  // The app's appointment step waits 30 s before it asks again (its `checkAgainAfterMs`).
  test.setTimeout(90_000);
  await preview.open();
  await preview.assign({ workflow: 'work-authorization', title: 'Work authorization' });
  const backend = page.getByRole('region', { name: 'Partner backend' });
  await offerModes(backend).getByLabel('none (nothing to choose)').check();
  await expect(offerModes(backend).getByLabel('none (nothing to choose)')).toBeChecked();
  await reachAppointment(preview.frame, page);

  await expect(preview.frame.getByText('There are no appointments near this postcode at the moment.')).toBeVisible();
  const checkAgain = preview.frame.getByRole('button', { name: 'Check again' });
  await expect(checkAgain).toHaveAttribute('aria-disabled', 'true');
  await expect(preview.frame.getByText('You can check again in 30 seconds.')).toBeVisible();
  await preview.checkAccessibility('no appointments, check again closed');
  await offerModes(backend).getByLabel('offers (the step’s sample)').check();
  await expect(offerModes(backend).getByLabel('offers (the step’s sample)')).toBeChecked();
  // Pressed too early it does nothing: the server would answer the kept offer anyway. (`force`: Playwright waits for
  // an aria-disabled button to open before it clicks.)
  const requests = backend.getByRole('list', { name: 'Offer requests, newest first' }).getByRole('listitem');
  await checkAgain.click({ force: true });
  await expect(checkAgain).toHaveAttribute('aria-disabled', 'true');
  await expect(requests).toHaveCount(1);

  await expect(checkAgain).not.toHaveAttribute('aria-disabled', { timeout: 35_000 });
  await checkAgain.click();
  await expect(preview.frame.getByRole('radio', { name: /Verification centre, 28001/ })).toHaveCount(2);
  await expect(requests).toHaveCount(2);
});
