import { describe, expect, it } from 'vitest';
import { eventStreamParser } from './event-stream';

describe('eventStreamParser', () => {
  it('yields whole events however the text is cut into chunks', () => {
    const seen: [string, string][] = [];
    const feed = eventStreamParser((name, data) => seen.push([name, data]));
    const text =
      'retry: 2000\n: connected\n\nevent: records-changed\ndata: {"records":1}\n\nevent: resync\r\ndata: {}\r\n\r\n';
    for (let i = 0; i < text.length; i += 7) feed(text.slice(i, i + 7));
    expect(seen).toEqual([
      ['records-changed', '{"records":1}'],
      ['resync', '{}'],
    ]);
  });

  it('joins multi-line data, names unnamed events "message" and keeps an unfinished event', () => {
    const seen: [string, string][] = [];
    const feed = eventStreamParser((name, data) => seen.push([name, data]));
    feed('data: a\ndata: b\n\nevent: x\ndata: half');
    expect(seen).toEqual([['message', 'a\nb']]);
    feed('\n\n');
    expect(seen).toEqual([
      ['message', 'a\nb'],
      ['x', 'half'],
    ]);
  });
});
