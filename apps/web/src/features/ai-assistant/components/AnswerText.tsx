import { parseAnswer, type InlineSpan } from '@ps/domain';
import { useMemo } from 'react';

function Inline({ spans }: { spans: InlineSpan[] }) {
  return (
    <>
      {spans.map((span, index) =>
        span.bold ? (
          <strong key={index} className="font-semibold">
            {span.text}
          </strong>
        ) : (
          <span key={index}>{span.text}</span>
        ),
      )}
    </>
  );
}

/** An answer as formatted elements (lists, bold, tables); its text is never read as HTML. */
export function AnswerText({ text }: { text: string }) {
  const blocks = useMemo(() => parseAnswer(text), [text]);
  return (
    <div className="flex flex-col gap-2">
      {blocks.map((block, index) => {
        switch (block.kind) {
          case 'paragraph':
            return (
              <p key={index}>
                <Inline spans={block.spans} />
              </p>
            );
          case 'list': {
            const List = block.ordered ? 'ol' : 'ul';
            return (
              <List
                key={index}
                className={`${block.ordered ? 'list-decimal' : 'list-disc'} flex flex-col gap-1 pl-4`}
              >
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex}>
                    <Inline spans={item} />
                  </li>
                ))}
              </List>
            );
          }
          case 'table':
            return (
              <div key={index} className="overflow-x-auto rounded border border-border">
                <table className="w-full text-[11px] leading-tight tabular-nums">
                  <thead className="bg-muted">
                    <tr>
                      {block.header.map((cell, cellIndex) => (
                        <th key={cellIndex} className="px-1 py-0.5 text-left align-bottom font-medium">
                          <Inline spans={cell} />
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {block.rows.map((row, rowIndex) => (
                      <tr key={rowIndex} className="border-t border-border">
                        {row.map((cell, cellIndex) => (
                          <td
                            key={cellIndex}
                            // Labels wrap so the figures keep their width in the 20rem drawer.
                            className={`px-1 py-0.5 ${cellIndex > 0 ? 'text-right whitespace-nowrap' : ''}`}
                          >
                            <Inline spans={cell} />
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
        }
      })}
    </div>
  );
}
