// Progress on stderr for the long commands (`fof run`, `fof label`): one line at a time — redrawn in place on a
// terminal; on a log (CI, a pipe) a new line at most every 5 s and the last state at the end, so a long run is
// neither silent nor thousands of lines.
export function progressLine(everyMs = 5_000) {
  const tty = !!process.stderr.isTTY;
  let printedAt = 0;
  let shown = "";
  let latest = "";
  const write = (text: string) => {
    latest = text;
    if (tty) {
      process.stderr.write(`\r\x1b[K${text}`);
      shown = text;
    } else if (text !== shown && Date.now() - printedAt >= everyMs) {
      printedAt = Date.now();
      shown = text;
      process.stderr.write(`${text}\n`);
    }
  };
  write.end = () => {
    if (tty && shown) process.stderr.write("\n");
    else if (!tty && latest && latest !== shown) process.stderr.write(`${latest}\n`);
    shown = latest = "";
  };
  return write;
}
