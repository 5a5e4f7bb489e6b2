/** The preview tokens visited in this browser tab, and where the visitor is among them (visitor-behaviour §2.4). */
export interface PreviewHistory {
  tokens: string[];
  index: number;
}

export const PREVIEW_HISTORY_KEY = 'embudo:preview-history';

export function parseHistory(text: string | null): PreviewHistory {
  try {
    const value = JSON.parse(text ?? 'null') as Partial<PreviewHistory> | null;
    if (value && Array.isArray(value.tokens) && typeof value.index === 'number') {
      const tokens = value.tokens.filter((t): t is string => typeof t === 'string');
      return { tokens, index: Math.min(Math.max(0, value.index), Math.max(0, tokens.length - 1)) };
    }
  } catch {
    // A damaged entry starts a new history.
  }
  return { tokens: [], index: 0 };
}

/** The history once the tab shows `token`: a known token moves the index; a new one follows it. */
export function visit(history: PreviewHistory, token: string): PreviewHistory {
  const known = history.tokens.indexOf(token);
  if (known >= 0) return { tokens: history.tokens, index: known };
  if (history.tokens.length === 0) return { tokens: [token], index: 0 };
  return { tokens: [...history.tokens.slice(0, history.index + 1), token], index: history.index + 1 };
}
