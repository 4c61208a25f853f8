import { useState } from "react";
import { describeError } from "./api";

/**
 * An async action behind a button: `busy` while it runs (so the button waits), and its failure,
 * in the reader's words, in `error` until the next run. `run` answers whether it succeeded.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (
    action: () => Promise<unknown>,
    describe: (error: unknown) => string = describeError,
  ) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (e) {
      setError(describe(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
