/**
 * Runs `run` once, at the visitor's first click, tap or key on the page: the moment to fetch code
 * that only what the visitor does can need, without weighing on the page's first load. Returns the
 * function that cancels it.
 */
export function onFirstInteraction(run: () => void): () => void {
  const stop = () => {
    window.removeEventListener('pointerdown', fire, true);
    window.removeEventListener('keydown', fire, true);
  };
  const fire = () => {
    stop();
    run();
  };
  window.addEventListener('pointerdown', fire, { capture: true, passive: true });
  window.addEventListener('keydown', fire, { capture: true, passive: true });
  return stop;
}
