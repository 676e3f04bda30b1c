import {
  adminToken,
  expect,
  newCustomer,
  pickCustomer,
  postAs,
  seriousViolationsOn,
  signedIn as test,
  storeToday,
  uniqueMobile,
} from './support/fixtures';

/**
 * A scheme saved in grams, on screen from start to close: the owner starts it on a weight plan
 * at Scheme Initiation, activates it (the receipt shows the day's rate and the gold bought, to
 * the milligram), and closes it on its statement (the confirmation shows the gold, the bonus
 * gold and the rate first; the statement then carries the bonus row in grams). The plan and the
 * day's rate are set through the API, the rest through the screens.
 */

const today = storeToday();
/** Grams with 3 decimals, as the screens show milligrams. */
const grams = (mg: number) => `${Math.floor(mg / 1000)}.${String(mg % 1000).padStart(3, '0')} g`;
/** Rupees as the screens show them: paise only when there are some. */
const rupees = (amount: number) =>
  `₹${amount.toLocaleString('en-IN', { minimumFractionDigits: Number.isInteger(amount) ? 0 : 2 })}`;

test('a weight scheme runs from start to close on screen, its gold exact to the milligram', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await adminToken(request);
  const mobileno = uniqueMobile('8');
  const custname = `Weight Saver ${mobileno.slice(-4)}`;
  await newCustomer(request, token, { mobileno, custname });
  // One installment, so the scheme may close as soon as it is paid.
  const plan = `W${mobileno.slice(-6)}`;
  await postAs(request, token, '/api/scheme-plans', {
    code: plan,
    name: 'Gold in one',
    kind: 'weight',
    installments: 1,
    minAmount: 1000,
    bonusPercent: 50,
    graceDays: 7,
    redeemWithinDays: 60,
  });
  // Today's rate as entered by whichever spec came first; else this one's.
  const entered = await request.get('/api/gold-rates/today', {
    headers: { Authorization: `Bearer ${token}` },
  });
  let rate = ((await entered.json()) as { data: { rate22k: number } | null }).data?.rate22k;
  if (rate === undefined) {
    rate = 7250.5;
    await postAs(request, token, '/api/gold-rates', { date: today, rate22k: rate, rate24k: 7910 });
  }
  const ratePaise = Math.round(rate * 100);
  // ₹3,000 at the day's rate, and the bonus (50% of one installment) at the same rate.
  const mg = Math.floor((3000 * 100_000) / ratePaise);
  const bonusMg = Math.floor((1500 * 100_000) / ratePaise);

  await page.goto('/home/scheme-generation');
  await pickCustomer(
    page.getByRole('combobox', { name: 'Search customer mobile no' }),
    mobileno,
    custname,
  );
  await page
    .getByRole('combobox', { name: 'Plan' })
    .selectOption({ label: `${plan} · Gold in one` });
  await page.getByLabel('Amount').fill('3000');
  await page.getByRole('button', { name: 'Generate Scheme' }).click();
  const table = page.getByRole('table', { name: 'Customer schemes' });
  const activate = table.getByRole('button', { name: /^Activate scheme \d+$/ });
  await expect(activate).toBeVisible();
  const schemeid = Number(/\d+$/.exec((await activate.getAttribute('aria-label')) ?? '')?.[0]);

  await activate.click();
  const dialog = page.getByRole('dialog', { name: `Activate Scheme ${schemeid}` });
  await dialog.getByRole('button', { name: 'ACTIVATE' }).click();
  const receipt = page.getByRole('dialog', { name: /^Receipt / });
  await expect(receipt).toContainText(`22K rate${rupees(rate)} a gram`);
  await expect(receipt).toContainText(`Gold bought${grams(mg)}`);
  await receipt.getByRole('button', { name: 'Close' }).click();

  await page.goto(`/home/scheme-statement?schemeid=${schemeid}`);
  await expect(page.getByText('1 of 1 paid')).toBeVisible();
  await page.getByRole('button', { name: 'Close scheme' }).click();
  const close = page.getByRole('dialog', { name: `Close Scheme ${schemeid}` });
  await expect(close).toContainText(`Gold saved${grams(mg)}`);
  await expect(close).toContainText(`Bonus gold${grams(bonusMg)}`);
  await expect(close).toContainText(`Today's 22K rate${rupees(rate)}`);
  expect(await seriousViolationsOn(page), 'close confirmation').toEqual([]);
  await close.getByRole('button', { name: 'CONFIRM' }).click();
  await expect(close).toBeHidden();

  // The statement ends with the bonus, bought at the closing day's rate.
  const statement = page.getByRole('table', { name: 'Scheme statement' });
  const bonusRow = statement.getByRole('row').filter({ hasText: 'Maturity bonus' });
  await expect(bonusRow).toContainText(grams(bonusMg).replace(' g', ''));
  await expect(page.getByText('Completed', { exact: true })).toBeVisible();
});

test("a plan's long name shows whole on Scheme Initiation, at the counter's PC and on a phone", async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const code = `N${uniqueMobile('8').slice(-6)}`;
  // A plan's name may run to 60 letters; at a sixth of the form's row it showed "N123456 · …".
  const name = 'Swarna Lakshmi Suvarna Varsham Gold Savings Plan with Bonus';
  await postAs(request, token, '/api/scheme-plans', {
    code,
    name,
    kind: 'value',
    installments: 11,
    minAmount: 1000,
    bonusPercent: 100,
    graceDays: 7,
    redeemWithinDays: 60,
  });
  await page.goto('/home/scheme-generation');
  const plan = page.getByRole('combobox', { name: 'Plan' });
  await plan.selectOption({ label: `${code} · ${name}` });
  for (const size of [
    { width: 1366, height: 768 },
    { width: 1280, height: 720 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    // Said in full under the form, on as many lines as it takes, inside the screen.
    const named = page.getByText(name, { exact: true });
    await expect(named).toBeVisible();
    await expect
      .poll(
        () =>
          named.evaluate((element) => {
            const box = element.getBoundingClientRect();
            return (
              element.scrollWidth <= element.clientWidth &&
              box.left >= 0 &&
              box.right <= document.documentElement.clientWidth
            );
          }),
        { message: `the plan's name at ${size.width} px` },
      )
      .toBe(true);
  }
  // At the counter's PC the plan field is wide enough for the code and the name, uncut.
  await page.setViewportSize({ width: 1366, height: 768 });
  await expect
    .poll(() =>
      plan.evaluate((select: HTMLSelectElement) => {
        const style = getComputedStyle(select);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = style.font;
        const text = context.measureText(select.selectedOptions[0]?.text ?? '').width;
        const room =
          select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return text <= room;
      }),
    )
    .toBe(true);
});
