/**
 * Test helpers for screens with a DataTable and downloads (imported by *.test.tsx files only):
 * the table's rows and cells as staff read them, and the files saveFile hands to the browser.
 */
import { screen } from '@testing-library/react';

/**
 * The body's rows of the table named `label` (header and footer rows left out), including the
 * one row a table without data shows, empty while loading or with its empty text.
 */
export function bodyRows(label: string) {
  const table = screen.getByRole('table', { name: label });
  const groups = table.querySelectorAll(':scope > [role="rowgroup"]');
  return Array.from(groups[1]?.querySelectorAll(':scope > [role="row"]') ?? []) as HTMLElement[];
}

/** The body's rows of data: the one row of a table still loading or empty is left out. */
export function dataRows(label: string) {
  const columns = screen
    .getByRole('table', { name: label })
    .querySelectorAll('[role="columnheader"]').length;
  return bodyRows(label).filter(
    (row) => row.querySelectorAll(':scope > [role="cell"]').length === columns,
  );
}

/** The footer's rows (the totals) of the table named `label`. */
export function footerRows(label: string) {
  const table = screen.getByRole('table', { name: label });
  const groups = table.querySelectorAll(':scope > [role="rowgroup"]');
  return Array.from(groups[2]?.querySelectorAll(':scope > [role="row"]') ?? []) as HTMLElement[];
}

export const cells = (row: HTMLElement) =>
  Array.from(row.querySelectorAll('[role="cell"]')).map((cell) => cell.textContent ?? '');

/** A Blob's text (jsdom's Blob has no text()). */
export const blobText = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

/** Catches what saveFile hands to the browser: the file's name and content. */
export function catchDownloads() {
  const blobs: Blob[] = [];
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    blobs.push(blob as Blob);
    return `blob:download-${blobs.length}`;
  };
  URL.revokeObjectURL = () => {};
  const names: string[] = [];
  const original = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
    if (this.download) names.push(this.download);
    else original.call(this);
  };
  return {
    names,
    text: (index = 0) => blobText(blobs[index]!),
    /** The file's bytes, byte-order mark included (reading it as text drops the mark). */
    bytes: (index = 0) =>
      new Promise<Uint8Array>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
        reader.onerror = () => reject(reader.error);
        reader.readAsArrayBuffer(blobs[index]!);
      }),
    restore: () => {
      HTMLAnchorElement.prototype.click = original;
    },
  };
}
