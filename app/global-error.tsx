"use client";

// Last-resort boundary for errors in the root layout itself: it must render its own <html>.
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "2rem" }}>
        <h1>FACT-OR-FAIR workbench: something went wrong</h1>
        <p>The application failed to render.{error.digest ? ` Error reference: ${error.digest}.` : ""}</p>
        <button type="button" onClick={() => reset()}>
          Try again
        </button>
      </body>
    </html>
  );
}
