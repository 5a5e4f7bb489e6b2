import { loadViteApp, renderDocument, type DocumentParts } from '../../http/vite-apps';

/**
 * What a visitor page is rendered with: the visitor app (`web`) loaded by name, and the document that
 * loads it (decision 0020). The app's server entry renders the page's parts; this shell writes the
 * HTML document around them.
 */
export interface WebAssets {
  /** The HTML document of one page: its parts with the app's styles and entry script (if built). */
  document: (parts: DocumentParts) => string;
}

/** Reads the visitor app's Vite manifest once at start-up. */
export function loadWebAssets(): WebAssets {
  const app = loadViteApp('web');
  return { document: (parts) => renderDocument({ app, ...parts }) };
}
