import { useEffect, useRef } from "react";

/**
 * An edit is drawn at once and saved in the background, so the first question about it may reach
 * the server before the edit does and be answered for the config before (404: nothing asked yet).
 * Once the edit is stored (the widget's revision moves on, and what it asks changed with it) the
 * data is asked again. A move on the grid changes the revision alone: no question.
 *
 * A question still on its way when the revision moves left before the edit was stored, and
 * asking again then would only join it: TanStack Query starts a fresh request over one in flight
 * only when the query already has data, and a changed question is a new query without any. So
 * the question is asked again once that one is answered.
 */
export function useAskAgainOnceSaved(
  query: { refetch(): unknown; isFetching: boolean },
  revision: number,
  asked: string,
) {
  const seen = useRef({ revision, asked });
  const afterThisOne = useRef(false);
  const { isFetching } = query;
  useEffect(() => {
    if (revision !== seen.current.revision) {
      if (asked !== seen.current.asked) {
        if (isFetching) afterThisOne.current = true;
        else void query.refetch();
      }
      seen.current = { revision, asked };
    }
    if (afterThisOne.current && !isFetching) {
      afterThisOne.current = false;
      void query.refetch();
    }
  }, [revision, asked, query, isFetching]);
}
