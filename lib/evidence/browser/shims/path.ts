// node:path (POSIX) for the browser verifier's bundle: string operations only, for module-level constants of code
// the re-scorer imports but never uses to open a file.
const norm = (parts: string[]) => {
  const out: string[] = [];
  for (const p of parts.join("/").split("/")) {
    if (!p || p === ".") continue;
    if (p === "..") out.pop();
    else out.push(p);
  }
  return out;
};
export const sep = "/";
export const join = (...parts: string[]) => {
  const abs = parts[0]?.startsWith("/");
  return (abs ? "/" : "") + norm(parts).join("/") || ".";
};
export const resolve = (...parts: string[]) => {
  let at = parts.length - 1;
  while (at > 0 && !parts[at].startsWith("/")) at--;
  return "/" + norm(parts.slice(at)).join("/");
};
export const dirname = (p: string) => p.replace(/\/[^/]*\/?$/, "") || (p.startsWith("/") ? "/" : ".");
export const basename = (p: string, ext?: string) => {
  const b = p.replace(/\/+$/, "").split("/").pop() ?? "";
  return ext && b.endsWith(ext) ? b.slice(0, -ext.length) : b;
};
export const extname = (p: string) => /(\.[^./]+)$/.exec(basename(p))?.[1] ?? "";
export const relative = (from: string, to: string) => {
  const a = norm([from]);
  const b = norm([to]);
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/");
};
export const isAbsolute = (p: string) => p.startsWith("/");
const path = { sep, join, resolve, dirname, basename, extname, relative, isAbsolute };
export const posix = path;
export default path;
