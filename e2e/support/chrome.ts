import fs from 'node:fs';

/** Debian's old headless shell (`apt-get install chromium-headless-shell`). */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The browser the e2e suite drives: CHROME_PATH, else Debian's old headless shell when
 * installed, else Debian's Chromium. The shell is the lighter: the full browser's headless mode
 * draws a browser window's own interface for every page, and a test took a third longer in it
 * (login and profile specs: 66 s against 44 s, one worker).
 */
export function chromePath(): string {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium';
}
