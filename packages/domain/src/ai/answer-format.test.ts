import { describe, expect, it } from 'vitest';
import { parseAnswer, parseInline } from './answer-format';

describe('answer format', () => {
  it('reads bold spans and keeps an unpaired mark as text', () => {
    expect(parseInline('a **b** c')).toEqual([
      { text: 'a ', bold: false },
      { text: 'b', bold: true },
      { text: ' c', bold: false },
    ]);
    expect(parseInline('2 ** 3')).toEqual([
      { text: '2 ', bold: false },
      { text: '** 3', bold: false },
    ]);
  });

  it('reads paragraphs, lists and tables', () => {
    const blocks = parseAnswer(
      '**Totals** for all:\n\n| A | B |\n|---|---|\n| 1 | $2 |\n\n- one\n- two\n\n1. first\n2. second\nlast line',
    );
    expect(blocks.map((b) => b.kind)).toEqual(['paragraph', 'table', 'list', 'list', 'paragraph']);
    expect(blocks[1]).toEqual({
      kind: 'table',
      header: [[{ text: 'A', bold: false }], [{ text: 'B', bold: false }]],
      rows: [[[{ text: '1', bold: false }], [{ text: '$2', bold: false }]]],
    });
    expect(blocks[3]).toMatchObject({ kind: 'list', ordered: true });
  });

  it('never turns markup into anything but text', () => {
    expect(parseAnswer('<img src=x onerror=alert(1)>')).toEqual([
      { kind: 'paragraph', spans: [{ text: '<img src=x onerror=alert(1)>', bold: false }] },
    ]);
  });
});
