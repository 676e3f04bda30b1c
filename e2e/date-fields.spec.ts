import {
  dateField,
  dateShown,
  expect,
  signedIn as test,
  slashDate,
  typeDate,
} from './support/fixtures';

/**
 * Every date field shows and takes DD/MM/YYYY, whatever the browser's language: here an
 * en-US browser, whose native date inputs would show MM/DD/YYYY. A typed 03/02 is the 3rd of
 * February, not the 2nd of March.
 */
test.use({ locale: 'en-US' });

const today = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
}).format(new Date());
const lastYear = Number(today.slice(0, 4)) - 1;
/** The financial year's start, as the server's get-fyear answers it. */
const fyStart = `${today.slice(5) >= '04-01' ? today.slice(0, 4) : lastYear}-04-01`;
const DD_MM_YYYY = /^\d{2}\/\d{2}\/\d{4}$/;

test('the browser is en-US, and no screen uses a native date input', async ({ page }) => {
  await page.goto('/home/statement');
  expect(await page.evaluate(() => navigator.language)).toBe('en-US');
  for (const path of [
    '/home/statement',
    '/home/loyalty-points',
    '/home/scheme-generation',
    '/home/scheme-summary',
    '/home/customer-profile',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('group').first()).toBeVisible();
    await expect(page.locator('input[type="date"]'), path).toHaveCount(0);
  }
});

test('Points Statement: Date from and Date to show DD/MM/YYYY and take a typed DD/MM/YYYY', async ({
  page,
}) => {
  await page.goto('/home/statement');
  const from = dateField(page, 'Date from');
  const to = dateField(page, 'Date to');
  await expect(from.locator('input')).toHaveValue(slashDate(fyStart));
  await expect(to.locator('input')).toHaveValue(slashDate(today));

  await typeDate(from, `03/02/${lastYear}`);
  await expect(from.locator('input')).toHaveValue(`03/02/${lastYear}`);
  await expect(from.getByRole('spinbutton', { name: 'Month' })).toHaveAttribute(
    'aria-valuetext',
    'February',
  );
});

test('Edit customer balance and Generate Scheme: the date shows today as DD/MM/YYYY', async ({
  page,
}) => {
  for (const path of ['/home/loyalty-points', '/home/scheme-generation']) {
    await page.goto(path);
    const date = dateField(page, /^Date/);
    await expect(date.locator('input')).toHaveValue(slashDate(today));
    expect(await dateShown(date)).toMatch(DD_MM_YYYY);
  }
});

test('Scheme Summary: From and To show DD/MM/YYYY; typed dates are sent as those days', async ({
  page,
}) => {
  await page.goto('/home/scheme-summary');
  const from = dateField(page, 'From');
  const to = dateField(page, 'To');
  await expect(from.locator('input')).toHaveValue(slashDate(fyStart));
  await expect(to.locator('input')).toHaveValue(slashDate(today));

  await typeDate(from, `03/02/${lastYear}`);
  await typeDate(to, `04/03/${lastYear}`);
  await expect(from.locator('input')).toHaveValue(`03/02/${lastYear}`);
  await expect(to.locator('input')).toHaveValue(`04/03/${lastYear}`);

  const sent = page.waitForRequest((request) => request.url().endsWith('/scheme/generate-summary'));
  await page.getByRole('button', { name: 'Generate Summary' }).click();
  const body = (await sent).postDataJSON() as { formData: { datefrom: string; dateto: string } };
  expect(body.formData).toMatchObject({
    datefrom: `${lastYear}-02-03`,
    dateto: `${lastYear}-03-04`,
  });
});
