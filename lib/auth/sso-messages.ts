// What the sign-in page says for each way a single sign-on can end without a session. Client-safe. The page shows
// only these texts, chosen by the `error` code of the redirect: a crafted link cannot put its own words on our page.

/** better-auth's id for the one OpenID Connect provider: its callback is /api/auth/callback/oidc. */
export const SSO_PROVIDER_ID = "oidc";

export const SSO_MESSAGES = {
  sso_domain_refused: "Your email address's domain may not sign in here. Ask an admin if it should.",
  sso_no_role: "Your groups at the identity provider give you no role here. Ask an admin to add you to a group that does.",
  sso_no_account: "There is no account for you here, and accounts are not created at sign-in. Ask an admin for an invitation.",
  sso_account_disabled: "This account is disabled. Ask an admin.",
  sso_no_email: "The identity provider did not tell us your email address (the email scope or claim is missing). Tell an admin.",
  sso_email_unverified:
    "The identity provider does not say your email address is verified, so it cannot be used to sign in here. Verify it at the provider, or tell an admin.",
  sso_link_off:
    "An account with your email exists, and single sign-on identities are not joined to existing accounts here. Sign in with your password, or ask an admin.",
  sso_link_changed:
    "Your single sign-on identity no longer matches the account it was joined to (its address changed or is no longer verified): the join was removed. Ask an admin.",
  sso_unavailable: "Single sign-on is not available right now. Try again, or tell an admin.",
} as const;

const PROVIDER_MESSAGES: Record<string, string> = {
  state_mismatch: "The sign-in could not be verified (it was not started from this browser, or it expired). Start again.",
  state_not_found: "The sign-in could not be verified (it was not started from this browser, or it expired). Start again.",
  state_invalid: "The sign-in could not be verified (it was not started from this browser, or it expired). Start again.",
  issuer_mismatch: "The answer came from another identity provider than the one configured: refused. Tell an admin.",
  issuer_missing: "The identity provider's answer did not say who sent it: refused. Tell an admin.",
  access_denied: "Sign-in was cancelled at the identity provider.",
  invalid_code: "The identity provider's answer could not be used (an expired or reused code). Start again.",
  unable_to_get_user_info: "The identity provider's answer could not be verified. Tell an admin (the server log says why).",
  account_not_linked: "An account with your email exists but could not be joined to your single sign-on identity. Ask an admin.",
  signup_disabled: "There is no account for you here. Ask an admin for an invitation.",
  unable_to_create_session: "You could not be signed in. Ask an admin.",
};

/** The sentence for a redirect's `error` code (unknown codes get a generic one naming the code, if it looks like one). */
export function ssoErrorMessage(code: string | undefined): string | null {
  if (!code) return null;
  if (Object.hasOwn(SSO_MESSAGES, code)) return SSO_MESSAGES[code as keyof typeof SSO_MESSAGES];
  if (Object.hasOwn(PROVIDER_MESSAGES, code)) return PROVIDER_MESSAGES[code]!;
  return /^[a-z_]{1,60}$/.test(code) ? `Single sign-on failed (${code}). Try again, or tell an admin.` : "Single sign-on failed. Try again, or tell an admin.";
}
