/**
 * A task run for a key (a folder to flush, say) whose callers share runs: a call while a run for
 * the key is going waits for the next run, which starts once the current one ends and serves every
 * call that arrived meanwhile. Each caller still gets a run that started after its call, so what it
 * did before calling is covered, while a burst of callers costs two runs instead of one each.
 */
export function sharedRuns(run: (key: string) => Promise<void>): (key: string) => Promise<void> {
  const running = new Map<string, Promise<void>>();
  const next = new Map<string, Promise<void>>();
  const start = (key: string): Promise<void> => {
    next.delete(key);
    const current = run(key).finally(() => {
      if (running.get(key) === current) running.delete(key);
    });
    running.set(key, current);
    return current;
  };
  return (key) => {
    const waiting = next.get(key);
    if (waiting) return waiting;
    const current = running.get(key);
    if (!current) return start(key);
    const queued = current.then(
      () => start(key),
      () => start(key),
    );
    next.set(key, queued);
    return queued;
  };
}
