// Vitest setup (every test file): the provider emulator listens on loopback, which the outbound endpoint policy
// refuses by default (lib/providers/outbound.ts); tests allow it the way an operator allows a local vLLM. Tests of
// the policy itself set their own FOF_ALLOWED_ENDPOINTS.
process.env.FOF_ALLOWED_ENDPOINTS ??= "127.0.0.1,::1,localhost";
