import { CSV_BOM } from '@kanak/contract';

/**
 * Hands a CSV to the browser as a download called `fileName`: one made in the browser, or the
 * server's. Every CSV starts with the UTF-8 byte-order mark, added here for all of them (once:
 * a server's CSV may still carry its own), so that Excel shows ₹ and Hindi or Tamil names.
 */
export function saveFile(csv: string, fileName: string) {
  const text = csv.startsWith(CSV_BOM) ? csv.slice(CSV_BOM.length) : csv;
  const url = URL.createObjectURL(new Blob([CSV_BOM, text], { type: 'text/csv;charset=utf-8' }));
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

/** Hands a JSON document made in the browser to it as a download called `fileName`. */
export function saveJsonFile(value: unknown, fileName: string) {
  saveText(JSON.stringify(value, null, 2), 'application/json;charset=utf-8', fileName);
}

/** Hands an XML document (a Tally import file) to the browser as a download. */
export function saveXmlFile(xml: string, fileName: string) {
  saveText(xml, 'application/xml;charset=utf-8', fileName);
}

function saveText(text: string, type: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  clickDownload(url, fileName);
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
