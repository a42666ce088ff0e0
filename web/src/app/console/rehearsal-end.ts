/**
 * The rehearsal of the console (rehearsal.tsx) ends once the console's shell is on screen. Kept
 * apart from it so that the shell, which says when that is, does not import the rehearsal.
 */
let shown = false;
const waiting: (() => void)[] = [];

/** Runs `end` once the console has been shown (at once if it has been). */
export function whenConsoleShown(end: () => void): void {
  if (shown) end();
  else waiting.push(end);
}

/** Called by the shell when it is first on screen. */
export function consoleShown(): void {
  shown = true;
  waiting.splice(0).forEach((end) => end());
}
