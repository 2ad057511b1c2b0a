// What one content set may hold: bounded so that validating, previewing and planning one is bounded work, and so that
// the scores stay defined (letters A–L label at most 12 people; k classes need k | people, see ./people.ts).
export const CONTENT_LIMITS = {
  /** bytes of one file, checked before it is parsed */
  fileBytes: 4 * 1024 * 1024,
  /** nesting depth of content.json, checked before it is parsed */
  jsonDepth: 12,
  attributes: 6,
  classes: 12,
  /** people in one subjective question: the least common multiple of the attributes' class counts */
  people: 12,
  statistics: 200,
  scenariosPerCell: 50,
  names: 200,
  aliases: 20,
  idChars: 64,
  wordChars: 120,
  nameChars: 200,
  textChars: 2000,
  scenarioChars: 4000,
  templateChars: 2000,
  urlChars: 2000,
  csvRows: 20000,
} as const;
