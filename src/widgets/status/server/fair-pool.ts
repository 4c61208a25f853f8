/**
 * How one pass shares its time between users: the checks of one user must not hold back another
 * user's (issue 29: one account's never-answering addresses made everyone's checks wait a minute).
 */
export interface FairLimits {
  /** Tasks in flight at once, all owners together. */
  concurrency: number;
  /** Tasks in flight at once for one owner: more of them only queue behind each other. */
  perOwner: number;
  /** Time one owner's tasks may take together in one run (the ones started still finish). */
  ownerBudgetMs: number;
  /** When the run must be over: a task starts only if its longest run ends by then. */
  deadline: number;
  /** The longest one task can take (its own timeout). */
  taskMs: number;
  now: () => number;
}

interface Owner<T> {
  id: string;
  items: T[];
  next: number;
  running: number;
  /** Time of its finished tasks; the running ones count from their start. */
  spentMs: number;
  /** When each of its running tasks started. */
  started: Set<{ at: number }>;
  done: boolean;
}

/**
 * Runs `work` over each owner's items, in each owner's order, fairly: a free slot goes to the
 * owner that has used the least time so far in this run, among those under their concurrency
 * and time budget. An owner's remaining items are skipped once its budget is spent or the
 * deadline is near; `ownerDone` is told, as soon as the owner has nothing left running, which
 * of its items ran, so its results are kept without waiting for other owners.
 */
export async function runFairly<T, R>(
  groups: ReadonlyMap<string, readonly T[]>,
  limits: FairLimits,
  work: (item: T) => Promise<R>,
  ownerDone: (owner: string, results: Map<T, R>) => Promise<void>,
): Promise<void> {
  const owners: Owner<T>[] = [...groups].map(([id, items]) => ({
    id,
    items: [...items],
    next: 0,
    running: 0,
    spentMs: 0,
    started: new Set(),
    done: false,
  }));
  const results = new Map<string, Map<T, R>>(owners.map((o) => [o.id, new Map()]));
  const finishing: Promise<void>[] = [];
  let failure: { error: unknown } | null = null;
  let running = 0;
  let wake: (() => void) | null = null;

  const charged = (owner: Owner<T>, now: number) => {
    let total = owner.spentMs;
    for (const task of owner.started) total += now - task.at;
    return total;
  };
  const finish = (owner: Owner<T>) => {
    owner.done = true;
    // Handled at once (an owner's failure must not crash the process), reported at the end.
    finishing.push(
      ownerDone(owner.id, results.get(owner.id)!).catch((error) => {
        failure ??= { error };
      }),
    );
  };

  for (;;) {
    const now = limits.now();
    const late = now + limits.taskMs > limits.deadline;
    for (const owner of owners) {
      if (owner.done || owner.running > 0) continue;
      // Nothing left, budget spent or no time left in the run: what ran is kept, the rest waits a pass.
      if (owner.next >= owner.items.length || late || charged(owner, now) >= limits.ownerBudgetMs)
        finish(owner);
    }
    const eligible = owners.filter(
      (o) =>
        !o.done &&
        o.next < o.items.length &&
        o.running < limits.perOwner &&
        !late &&
        charged(o, now) < limits.ownerBudgetMs,
    );
    if (running < limits.concurrency && eligible.length > 0) {
      // The owner that has had the least time so far goes first, then the one with fewer running
      // (so a first wave goes round the owners), then the owners' order.
      const owner = eligible.reduce((best, o) => {
        const [mine, theirs] = [charged(o, now), charged(best, now)];
        return mine < theirs || (mine === theirs && o.running < best.running) ? o : best;
      });
      const item = owner.items[owner.next++]!;
      owner.running++;
      running++;
      const task = { at: now };
      owner.started.add(task);
      void work(item)
        .then((result) => void results.get(owner.id)!.set(item, result))
        // A task that throws leaves no result: the item counts as not run in this pass.
        .catch(() => {})
        .finally(() => {
          owner.started.delete(task);
          owner.spentMs += Math.max(0, limits.now() - task.at);
          owner.running--;
          running--;
          wake?.();
        });
      continue;
    }
    if (running === 0) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = null;
  }
  await Promise.all(finishing);
  if (failure) throw (failure as { error: unknown }).error;
}
