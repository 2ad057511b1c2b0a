// What a run says of itself to someone outside the team: its models' declared identities and settings as snapshotted
// at launch, never a credential (no key-variable name, no credential, a base URL without user, query or fragment), and
// an adaptive run's stopping rule as set at launch (its looks and outcome come later). One definition for the design
// statement signed at launch (./design.ts) and the evidence bundle (lib/features/evidence/tables.ts), so the two can
// be compared field for field.

/** A URL as scheme, host and path: no user, password, query or fragment (a token can hide in any of them). */
export function cleanUrl(url: string | null): string | null {
  if (!url) return url;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return null;
  }
}

/** A run model's settings snapshot (RunModel.settingsJson) without the credential's trail. */
export function declaredSettings(settingsJson: string): Record<string, unknown> {
  const { apiKeyEnv: _k, credential: _c, ...settings } = JSON.parse(settingsJson) as Record<string, unknown>;
  if (typeof settings.baseUrl === "string") settings.baseUrl = cleanUrl(settings.baseUrl);
  return settings;
}

/** An adaptive run's rule (target, look schedule, α, what its intervals are about, its scores) — not its looks. */
export function stoppingRule(adaptiveJson: string | null): unknown {
  if (!adaptiveJson) return null;
  try {
    const { looks: _l, outcome: _o, ...rule } = JSON.parse(adaptiveJson) as Record<string, unknown>;
    return rule;
  } catch {
    return null;
  }
}
