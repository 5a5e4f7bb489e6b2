import { describe, expect, it } from 'vitest';
import { createPageAnswers } from './page-answers';

describe('kept page answers', () => {
  it('gives an answer back only at the version it was made at', () => {
    const answers = createPageAnswers(4);
    answers.set('page-1|20000|20029', 3, '{"sessions":1}');
    expect(answers.get('page-1|20000|20029', 3)).toBe('{"sessions":1}');
    expect(answers.get('page-1|20000|20029', 4)).toBeUndefined();
    // A stale answer is dropped, not kept beside the new version.
    expect(answers.get('page-1|20000|20029', 3)).toBeUndefined();
    expect(answers.get('page-1|20000|20030', 3)).toBeUndefined();
  });

  it('keeps at most its capacity, forgetting the answer asked for least recently', () => {
    const answers = createPageAnswers(2);
    answers.set('a', 1, 'A');
    answers.set('b', 1, 'B');
    expect(answers.get('a', 1)).toBe('A');
    answers.set('c', 1, 'C');
    expect(answers.get('b', 1)).toBeUndefined();
    expect(answers.get('a', 1)).toBe('A');
    expect(answers.get('c', 1)).toBe('C');
  });
});
