import type { Locator, Page } from '@playwright/test';

/** What a table does wrong, as a failed check lists it. */
export interface Misfit {
  problem: 'outside its cell' | 'word broken' | 'scrolls sideways';
  text: string;
}

/**
 * The misfits of every table `tables` matches, as drawn now, measured in one go (a table that
 * re-renders between a count and a look cannot be missed or waited for): each text of a header
 * or cell (a Range over each text node: where the browser drew it) inside the cell's box; each
 * word of a header or total on one line; the table and its box, and the page, no wider than
 * they show.
 */
export function misfits(tables: Locator): Promise<Misfit[]> {
  return tables.evaluateAll((elements) => {
    const found: {
      problem: 'outside its cell' | 'word broken' | 'scrolls sideways';
      text: string;
    }[] = [];
    for (const element of elements) {
      const lines = (range: Range) =>
        new Set(
          [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
        ).size;
      // Text kept for screen readers only (a clipped 1 px box) is not drawn.
      const drawn = (node: Node) => {
        for (let e = node.parentElement; e && e !== element; e = e.parentElement) {
          const style = getComputedStyle(e);
          if (style.display === 'none' || style.visibility === 'hidden') return false;
          if (style.clip !== 'auto' && style.position === 'absolute') return false;
        }
        return true;
      };
      const groups = element.querySelectorAll(':scope > [role="rowgroup"]');
      // The totals: a grid table's third row group (header, body, footer), or a table's tfoot.
      const footer = groups.length === 3 ? groups.item(2) : element.querySelector('tfoot');
      const cells = element.querySelectorAll<HTMLElement>(
        '[role="columnheader"], [role="cell"], th, td',
      );
      for (const cell of cells) {
        const box = cell.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        const header = cell.matches('[role="columnheader"], th');
        const total = footer?.contains(cell) ?? false;
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          if (text.trim() === '' || !drawn(node)) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          const outside = [...range.getClientRects()].some(
            (r) =>
              r.width > 0 &&
              (r.left < box.left - 1 ||
                r.right > box.right + 1 ||
                r.top < box.top - 1 ||
                r.bottom > box.bottom + 1),
          );
          if (outside) found.push({ problem: 'outside its cell', text: text.trim() });
          if (!header && !total) continue;
          for (const word of text.matchAll(/\S+/g)) {
            const part = document.createRange();
            part.setStart(node, word.index);
            part.setEnd(node, word.index + word[0].length);
            if (lines(part) > 1) found.push({ problem: 'word broken', text: word[0] });
          }
        }
      }
      for (const box of [element, element.parentElement, document.documentElement]) {
        if (box && box.scrollWidth > box.clientWidth + 1) {
          found.push({
            problem: 'scrolls sideways',
            text: `${box.tagName.toLowerCase()} ${box.scrollWidth} > ${box.clientWidth}`,
          });
        }
      }
    }
    // Each misfit once: the same cut repeats on every row.
    return [...new Map(found.map((misfit) => [JSON.stringify(misfit), misfit])).values()];
  });
}

/** How much wider than the window the page is drawn (0: no sideways scroll). */
export const pageOverflow = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
