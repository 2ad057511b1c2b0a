// What one import of a suite's data files may hold: shared by the browser form (checks before sending), the upload
// route (checks before reading) and the CLI (checks before opening). Client-safe.
export const DATA_FILE_LIMITS = {
  maxFiles: 20,
  maxFileBytes: 5 * 1024 * 1024,
  /** one upload as a whole, multipart framing included (the official DoFaiR files are about 120 kB in all) */
  maxUploadBytes: 12 * 1024 * 1024,
  maxDepth: 6,
} as const;

/** "5 MB": sizes as the messages say them. */
export const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
