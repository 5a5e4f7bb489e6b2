import type { PlayerAdapter, VideoSource } from './player';

/**
 * The adapter for a page's provider, each in a chunk of its own: a visitor downloads the code of
 * one provider, and only after the page has painted.
 */
export async function loadAdapter(hosting: VideoSource['hostingVideo']): Promise<PlayerAdapter> {
  switch (hosting) {
    case 'SELF_HOSTED':
      return (await import('./providers/html5')).mountHtml5;
    case 'VIMEO':
      return (await import('./providers/vimeo')).mountVimeo;
    case 'PANDA':
      return (await import('./providers/panda')).mountPanda;
    case 'VTURB':
      return (await import('./providers/vturb')).mountVturb;
    case 'EMBED':
      return (await import('./providers/embed')).mountEmbed;
  }
}
