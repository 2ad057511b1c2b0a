import Link from "next/link";

/** Previous / next links of a list that pages by key (the server gives each link's cursor; null: none that way). */
export function CursorNav({
  label,
  prev,
  next,
  prevText = "← Previous",
  nextText = "Next →",
}: {
  label: string;
  prev: string | null;
  next: string | null;
  prevText?: string;
  nextText?: string;
}) {
  if (!prev && !next) return null;
  return (
    <nav className="mt-3 flex justify-between text-sm" aria-label={label}>
      {prev ? (
        <Link href={prev} className="text-indigo-700 hover:underline" rel="prev">
          {prevText}
        </Link>
      ) : (
        <span />
      )}
      {next && (
        <Link href={next} className="text-indigo-700 hover:underline" rel="next">
          {nextText}
        </Link>
      )}
    </nav>
  );
}
