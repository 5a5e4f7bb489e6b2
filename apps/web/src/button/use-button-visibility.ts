import { useCallback, useEffect, useRef, useState } from 'react';
import { createButtonVisibility, waitMs, type ButtonTime, type VisibilityEvent } from './button-visibility';

export interface ButtonVisibilityInput {
  pageId: string;
  buttonTime: ButtonTime;
  isComplete: boolean;
  silentPlayer: boolean;
  noVideo: boolean;
}

/** The button's visibility for the page on screen (visitor-behaviour §4.5); a new page id hides it again. */
export function useButtonVisibility({
  pageId,
  buttonTime,
  isComplete,
  silentPlayer,
  noVideo,
}: ButtonVisibilityInput) {
  const [shownFor, setShownFor] = useState<string | null>(null);
  const controller = useRef<ReturnType<typeof createButtonVisibility> | null>(null);
  const { hours, minutes, seconds } = buttonTime;

  useEffect(() => {
    const created = createButtonVisibility({
      buttonTime: { hours, minutes, seconds },
      isComplete,
      silentPlayer,
      noVideo,
      show: () => {
        setShownFor(pageId);
      },
    });
    controller.current = created;
    return () => {
      created.dispose();
      controller.current = null;
    };
  }, [pageId, hours, minutes, seconds, isComplete, silentPlayer, noVideo]);

  const onPlayerEvent = useCallback((event: VisibilityEvent) => {
    controller.current?.handle(event);
  }, []);

  // A page without a video and without a wait shows its button from the first paint.
  const immediate = noVideo && waitMs(buttonTime) === 0;
  return { visible: immediate || shownFor === pageId, onPlayerEvent };
}
