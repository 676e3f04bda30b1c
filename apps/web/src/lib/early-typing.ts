/**
 * Keys typed before a screen's first field is there. After a reload the screen's code loads
 * for a moment with the focus on the page itself, and a quick typist's first digits went
 * nowhere. They are kept here and handed to the field that takes the focus on mount.
 */
const KEEP_FOR_MS = 5_000;

let typed = '';
let lastKeyAt = 0;

function onKeyDown(event: KeyboardEvent): void {
  const target = event.target;
  const onPage = target === document.body || target === document.documentElement;
  if (!onPage || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key.length === 1) typed += event.key;
  else if (event.key === 'Backspace') typed = typed.slice(0, -1);
  else return;
  lastKeyAt = Date.now();
}

let screensLoading = 0;

/**
 * A screen's code starts loading: keys typed while it loads are kept for it however long the
 * loading takes (a slow connection must not lose them), and for a while after. Answers the
 * function to call once it has loaded.
 */
export function screenLoading(): () => void {
  if (Date.now() - lastKeyAt > KEEP_FOR_MS) typed = '';
  screensLoading += 1;
  return () => {
    screensLoading -= 1;
    if (typed !== '') lastKeyAt = Date.now();
  };
}

/** A click somewhere: the keys typed before were not meant for the next field. */
function onPointerDown(): void {
  typed = '';
}

export function startKeepingEarlyTyping(): void {
  document.addEventListener('keydown', onKeyDown, true);
  document.addEventListener('pointerdown', onPointerDown, true);
}

/** The text typed on the page just before, once (then it is gone). */
export function takeEarlyTyping(): string {
  const text = screensLoading > 0 || Date.now() - lastKeyAt <= KEEP_FOR_MS ? typed : '';
  // Forgotten after this render, not during it: development renders initialisers twice.
  queueMicrotask(() => {
    typed = '';
  });
  return text;
}
