/**
 * Data an administration page fetches itself (GET /invites, GET /streams with archived and default
 * flags) because the register state does not carry it, fetched again whenever the server sends an
 * event of a type that may have changed it, so the page stays live like the rest of the client.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { useServerEvents } from "../session";
import { errorText } from "./controls";

export interface Fetched<T> {
  data: T | undefined;
  error: string | null;
  reload(): Promise<void>;
}

export function useFetched<T>(load: () => Promise<T>, refreshOn: readonly string[]): Fetched<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  // A newer request supersedes an older one still in flight.
  const generation = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const result = await loadRef.current();
      if (mine !== generation.current) return;
      setData(result);
      setError(null);
    } catch (e) {
      if (mine === generation.current) setError(errorText(e));
    }
  }, []);
  useEffect(() => {
    void reload();
    return () => void generation.current++;
  }, [reload]);
  useServerEvents(
    (events) => {
      if (events.some((e) => refreshOn.includes(e.type))) void reload();
    },
    [reload, refreshOn.join(",")],
  );
  return { data, error, reload };
}
