import type { Page } from '@playwright/test';
import { PAGE_TITLES, SCHEME_TEXTS } from '@kanak/contract';
import {
  adminToken,
  expect,
  newCustomer,
  newStaff,
  postAs,
  signedIn as test,
  startScheme,
  storeToday,
  uniqueMobile,
  untilStill,
} from './support/fixtures';

/**
 * Text contrast of the staff screens, measured: axe leaves it "needs review" (the top bar's
 * gradient, the sidebar's tinted entries), so every piece of text in view is looked at here
 * from the browser's computed styles: its colour, with the opacity of its ancestors, over the
 * background it is drawn on (each stop of a gradient; translucent layers laid over what is
 * under them), against WCAG AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
 * Disabled controls are exempt, as WCAG has them.
 */

interface Measured {
  /** `#rrggbb` of the text, and of the background it is worst against. */
  color: string;
  background: string;
  ratio: number;
  large: boolean;
  /** Where it was first seen: the nearest element with a role or a MUI class, and the text. */
  where: string;
  text: string;
}

/** Every text in view on the page, grouped by colour, background and size: the worst of each. */
function measureContrast(page: Page): Promise<Measured[]> {
  return page.evaluate(() => {
    interface Rgba {
      r: number;
      g: number;
      b: number;
      a: number;
    }
    const parse = (css: string): Rgba | null => {
      const match = /rgba?\(([^)]+)\)/.exec(css);
      if (!match) return null;
      const [r = 0, g = 0, b = 0, a = 1] = match[1]!
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return { r, g, b, a };
    };
    const colorsIn = (css: string) =>
      [...css.matchAll(/rgba?\([^)]+\)/g)].map((m) => parse(m[0])!).filter(Boolean);
    /** `top` laid over the opaque `bottom`. */
    const over = (top: Rgba, bottom: Rgba): Rgba => ({
      r: top.r * top.a + bottom.r * (1 - top.a),
      g: top.g * top.a + bottom.g * (1 - top.a),
      b: top.b * top.a + bottom.b * (1 - top.a),
      a: 1,
    });
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const luminance = (c: Rgba) =>
      0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
    const ratioOf = (a: Rgba, b: Rgba) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light! + 0.05) / (dark! + 0.05);
    };
    const hex = (c: Rgba) =>
      `#${[c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

    /** The opaque colours the element is drawn on: one, or each stop of a gradient. */
    const backgroundsOf = (element: Element): Rgba[] => {
      const layers: Rgba[] = [];
      let bottoms: Rgba[] = [{ r: 255, g: 255, b: 255, a: 1 }];
      for (let at: Element | null = element; at; at = at.parentElement) {
        const style = getComputedStyle(at);
        const stops = style.backgroundImage.includes('gradient')
          ? colorsIn(style.backgroundImage)
          : [];
        if (stops.length > 0) {
          bottoms = stops.map((stop) => over(stop, { r: 255, g: 255, b: 255, a: 1 }));
          break;
        }
        const color = parse(style.backgroundColor);
        if (color && color.a > 0) {
          if (color.a >= 1) {
            bottoms = [color];
            break;
          }
          layers.push(color);
        }
      }
      return bottoms.map((bottom) =>
        layers.reduceRight((under, layer) => over(layer, under), bottom),
      );
    };
    const opacityOf = (element: Element) => {
      let opacity = 1;
      for (let at: Element | null = element; at; at = at.parentElement)
        opacity *= Number(getComputedStyle(at).opacity);
      return opacity;
    };
    const whereOf = (element: Element) => {
      const named = element.closest('[role], [class*="Mui"], h1, h2, h3, a, button, th, td');
      if (!named) return element.tagName.toLowerCase();
      const role = named.getAttribute('role');
      const mui = [...named.classList].find((name) => /^Mui[A-Za-z]+-root$/.test(name));
      return [named.tagName.toLowerCase(), role && `[role=${role}]`, mui && `.${mui}`]
        .filter(Boolean)
        .join('');
    };

    const worst = new Map<string, Measured>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const element = node.parentElement;
      if (!text || !element) continue;
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (element.closest(':disabled, [aria-disabled="true"], .Mui-disabled')) continue;
      const style = getComputedStyle(element);
      const inSvg = element instanceof SVGElement;
      const color = parse(inSvg ? style.fill : style.color);
      if (!color) continue;
      const size = Number.parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const shown = { ...color, a: color.a * opacityOf(element) };
      for (const background of backgroundsOf(element)) {
        const drawn = over(shown, background);
        const ratio = ratioOf(drawn, background);
        const key = `${hex(drawn)} on ${hex(background)}${large ? ' large' : ''}`;
        const before = worst.get(key);
        if (!before || ratio < before.ratio)
          worst.set(key, {
            color: hex(drawn),
            background: hex(background),
            ratio: Math.round(ratio * 100) / 100,
            large,
            where: whereOf(element),
            text: text.slice(0, 40),
          });
      }
    }
    return [...worst.values()].sort((a, b) => a.ratio - b.ratio);
  });
}

const needed = (measured: Measured) => (measured.large ? 3 : 4.5);

const screens: { path: string; title: string; show?: (page: Page) => Promise<void> }[] = [
  { path: '/home', title: 'Dashboard' },
  { path: '/home/staff', title: PAGE_TITLES.staff },
  { path: '/home/daily-collections', title: PAGE_TITLES.collectionsReport },
  {
    path: '/home/scheme-summary',
    title: PAGE_TITLES.schemeSummary,
    show: async (page) => {
      await page.getByRole('button', { name: SCHEME_TEXTS.summary.generate }).click();
      // Each status as a chip: Active filled, Inactive outlined.
      for (const status of ['Active', 'Inactive'])
        await expect(
          page.locator('.MuiChip-root', { hasText: new RegExp(`^${status}$`) }).first(),
        ).toBeVisible();
    },
  },
];

test('the staff screens’ text meets WCAG AA contrast, measured in Chromium', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  // A day's work, so the screens show their rows, chips and figures: a cashier on the staff
  // list; a customer with an active scheme paid today, one not yet started, and points
  // redeemed at the counter.
  const admin = await adminToken(request);
  await newStaff(request, admin, 'cashier');
  const mobileno = uniqueMobile('9');
  const customer = { mobileno, custname: `Contrast ${mobileno.slice(-4)}` };
  const custid = await newCustomer(request, admin, customer);
  const today = storeToday();
  await startScheme(
    request,
    admin,
    { custid, ...customer, startdt: today, amount: 2_500 },
    {
      date: today,
      mode: 'upi',
    },
  );
  await startScheme(request, admin, { custid, ...customer, startdt: today, amount: 1_000 });
  await postAs(request, admin, '/api/customers/update-points', {
    formData: {
      MOBILENO: mobileno,
      CUSTNAME: customer.custname,
      POINTS: '500',
      NARRATION: '',
      INVDATE: today,
      CASHCR: 'CR',
    },
  });
  await postAs(request, admin, '/api/points/redeem', { mobile: mobileno, points: 200 });

  const found: Record<string, Measured[]> = {};
  for (const screen of screens) {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: screen.title })).toBeVisible();
    await screen.show?.(page);
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    // Nothing loading and no transition under way: a button enabled as its data arrives passes
    // through paler colours.
    await untilStill(page);
    found[screen.path] = await measureContrast(page);
  }
  const report = Object.entries(found)
    .flatMap(([path, measured]) =>
      measured.map(
        (m) =>
          `${path}\t${m.ratio.toFixed(2)}:1\t${m.color} on ${m.background}${m.large ? ' (large)' : ''}\t${m.where}\t${m.text}`,
      ),
    )
    .join('\n');
  await testInfo.attach('contrast.tsv', { body: report, contentType: 'text/plain' });
  console.log(report);

  const failing = Object.entries(found).flatMap(([path, measured]) =>
    measured.filter((m) => m.ratio < needed(m)).map((m) => ({ path, ...m })),
  );
  expect(failing).toEqual([]);
});
