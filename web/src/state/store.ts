/**
 * A minimal observable store (no extra npm package): one immutable value, replaced on each change,
 * and a Preact hook that re-renders a component only when the slice it selected changes.
 */
import { useEffect, useRef, useState } from "preact/hooks";

export interface Store<T> {
  get(): T;
  set(next: T | ((previous: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const updated = typeof next === "function" ? (next as (previous: T) => T)(value) : next;
      if (Object.is(updated, value)) return;
      value = updated;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Shallow equality of plain objects and arrays, so selectors may build small records. */
function shallowEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  // Maps and Sets have no own keys: compared key by key, any two would look equal.
  if (!Array.isArray(a) && (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((key) => Object.is((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** The selected slice of `store`, re-rendering when it changes (shallowly). */
export function useStore<T, S>(store: Store<T>, select: (value: T) => S): S {
  const [, forceRender] = useState(0);
  const selected = select(store.get());
  const latest = useRef({ select, selected });
  latest.current = { select, selected };
  useEffect(() => {
    const check = () => {
      const next = latest.current.select(store.get());
      if (!shallowEqual(next, latest.current.selected)) forceRender((n) => n + 1);
    };
    check(); // the store may have changed between render and subscription
    return store.subscribe(check);
  }, [store]);
  return selected;
}
