/** Reads a live stream's events in tests: `next()` waits for the next one not read yet. */
export function readLiveStream(response: Response) {
  if (!response.body) throw new Error("the live answer has no body");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const events: { type: string; data: unknown }[] = [];
  let read = 0;
  let isEnded = false;
  let wake = () => {};
  void (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type) events.push({ type, data: data ? JSON.parse(data) : null });
          end = buffer.indexOf("\n\n");
        }
        wake();
      }
    } catch {
      // Cancelled by close().
    }
    isEnded = true;
    wake();
  })();

  return {
    events,
    /** The next event, or an error after the timeout or when the stream ended first. */
    async next(timeoutMs = 10_000): Promise<{ type: string; data: unknown }> {
      const deadline = Date.now() + timeoutMs;
      while (read >= events.length) {
        if (isEnded) throw new Error(`the live stream ended; events: ${JSON.stringify(events)}`);
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`no live event within ${timeoutMs} ms; events: ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return events[read++] as { type: string; data: unknown };
    },
    /** Resolves once the server has closed the stream. */
    async ended(timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!isEnded) {
        if (Date.now() > deadline) throw new Error("the live stream did not end");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => reader.cancel().catch(() => {}),
  };
}
