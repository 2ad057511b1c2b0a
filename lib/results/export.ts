// File names and bodies shared by the score export endpoints.
export const exportFileName = (name: string, ext: string) => `${name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80) || "run"}.${ext}`;

export function attachment(body: string, fileName: string, type: string): Response {
  return new Response(body, { headers: { "content-type": type, "content-disposition": `attachment; filename="${fileName}"`, "cache-control": "no-store" } });
}
