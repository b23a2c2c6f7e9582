/** Times the steps of a start-up, for the `listening` log line. */
export function createStepTimer() {
  const started = performance.now();
  let last = started;
  const steps: Record<string, number> = {};
  return {
    /** Records the time since the previous step under this name. */
    step(name: string) {
      const at = performance.now();
      steps[name] = Math.round(at - last);
      last = at;
    },
    total: () => Math.round(performance.now() - started),
    steps,
  };
}

export type StepTimer = ReturnType<typeof createStepTimer>;
