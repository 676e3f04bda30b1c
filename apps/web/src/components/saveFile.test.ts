import { afterEach, describe, expect, it } from 'vitest';
import { saveFile } from './saveFile';

/** The bytes of a Blob (jsdom's Blob has no arrayBuffer()). */
const bytesOf = (blob: Blob) =>
  new Promise<Uint8Array>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });

const originalClick = HTMLAnchorElement.prototype.click;
afterEach(() => {
  HTMLAnchorElement.prototype.click = originalClick;
});

describe('saveFile: every CSV the browser makes', () => {
  it('starts with the UTF-8 byte-order mark, then the text as UTF-8', async () => {
    const blobs: Blob[] = [];
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      blobs.push(blob as Blob);
      return 'blob:csv-1';
    };
    URL.revokeObjectURL = () => {};
    const names: string[] = [];
    HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
      names.push(this.download);
    };

    saveFile('Name,Amount (₹)\r\nமுருகன்,20000\r\nसीता,5000\r\n', 'summary.csv');

    expect(names).toEqual(['summary.csv']);
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
    const bytes = await bytesOf(blobs[0]!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(3))).toBe(
      'Name,Amount (₹)\r\nமுருகன்,20000\r\nसीता,5000\r\n',
    );
  });

  it('keeps one byte-order mark when the CSV came from the server with its own', async () => {
    const blobs: Blob[] = [];
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      blobs.push(blob as Blob);
      return 'blob:csv-2';
    };
    URL.revokeObjectURL = () => {};
    HTMLAnchorElement.prototype.click = () => {};

    saveFile('\uFEFFDate,Amount\r\n24/11/2026,5000\r\n', 'collections.csv');

    const bytes = await bytesOf(blobs[0]!);
    expect([...bytes.subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0x44]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(3))).toBe(
      'Date,Amount\r\n24/11/2026,5000\r\n',
    );
  });
});
