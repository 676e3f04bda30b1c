import { CSV_BOM } from '@kanak/contract';

/**
 * Hands a CSV made in the browser to it as a download called `fileName`. Every CSV starts with
 * the UTF-8 byte-order mark, added here for all of them, so that Excel shows ₹ and Hindi or
 * Tamil names.
 */
export function saveFile(csv: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([CSV_BOM, csv], { type: 'text/csv;charset=utf-8' }));
  clickDownload(url, fileName);
  // Give the browser time to start the download before the address goes away.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Lets the browser's download manager fetch `url` itself: the file goes to disk as it arrives
 * and never through this page's memory, however large it is.
 */
export function downloadUrl(url: string, fileName: string) {
  clickDownload(url, fileName);
}

function clickDownload(href: string, fileName: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
