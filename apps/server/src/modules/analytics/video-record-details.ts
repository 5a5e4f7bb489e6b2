/** What a video record's stored details say that analytics reads: its player state and the video's length. */
export function videoRecordDetails(details: string): { state: string; videoDuration: number } {
  try {
    const parsed = JSON.parse(details) as { state?: unknown; videoDuration?: unknown } | null;
    return {
      state: typeof parsed?.state === 'string' ? parsed.state : '',
      videoDuration: typeof parsed?.videoDuration === 'number' ? parsed.videoDuration : 0,
    };
  } catch {
    return { state: '', videoDuration: 0 };
  }
}
