/** The account forms' error line (announced to screen readers). */
export function FormError({ message }: { message: string | null | undefined }) {
  return message ? (
    <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
      {message}
    </p>
  ) : null;
}
