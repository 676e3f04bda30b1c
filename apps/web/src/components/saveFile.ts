/** Hands `content` to the browser as a download called `fileName`. */
export function saveFile(
  content: Blob | string,
  fileName: string,
  type = 'text/csv;charset=utf-8',
) {
  const blob = typeof content === 'string' ? new Blob([content], { type }) : content;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the address goes away.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
