import { useEffect, useRef } from "react";

/**
 * An edit is drawn at once and saved in the background, so the first question about it may reach
 * the server before the edit does and be answered for the config before (404: nothing asked yet).
 * Once the edit is stored (the widget's revision moves on, and what it asks changed with it) the
 * data is asked again. A move on the grid changes the revision alone: no question.
 */
export function useAskAgainOnceSaved(query: { refetch(): unknown }, revision: number, asked: string) {
  const seen = useRef({ revision, asked });
  useEffect(() => {
    if (revision === seen.current.revision) return;
    if (asked !== seen.current.asked) void query.refetch();
    seen.current = { revision, asked };
  }, [revision, asked, query]);
}
