/**
 * Reads a text/event-stream (server-sent events) as it arrives in chunks: each complete event
 * (lines up to a blank line) with an `event:` name and `data:` goes to `onEvent`; comments,
 * `retry:` and events without data are skipped. Used where EventSource cannot be (it sends no
 * Authorization header).
 */
export function eventStreamParser(onEvent: (name: string, data: string) => void): (chunk: string) => void {
  let buffered = '';
  return (chunk) => {
    buffered += chunk.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) onEvent(name, data.join('\n'));
    }
  };
}
