import { useSearchParams } from 'react-router';

/**
 * Named search parameters of the page URL (with a prefix, so tabs sharing names such as
 * `from` do not collide), read as text and written by merging: an empty value removes it.
 */
export function useUrlValues<K extends string>(names: readonly K[], prefix = '') {
  const [searchParams, setSearchParams] = useSearchParams();
  const values = Object.fromEntries(names.map((name) => [name, searchParams.get(prefix + name) ?? ''])) as Record<K, string>;
  const update = (changes: Partial<Record<K, string>>) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes) as [K, string | undefined][]) {
          if (value) next.set(prefix + name, value);
          else next.delete(prefix + name);
        }
        return next;
      },
      { preventScrollReset: true },
    );
  return [values, update] as const;
}
