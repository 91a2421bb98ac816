import { z } from 'zod/mini';
import { CONSOLE_ROLES } from './console-roles';

/**
 * `GET /_console/auth/session`: who is signed in to the console, for the SPA. Never holds a
 * key or a token. `name` is an oidc user's verified e-mail, or which API key. `mode: none` means the console signs no one in (it acts with the server's
 * keys); otherwise `user` is null until someone signs in.
 */
export const consoleSessionSchema = z.object({
  mode: z.enum(['none', 'apikey', 'oidc']),
  user: z.nullable(
    z.object({
      name: z.string(),
      role: z.enum(CONSOLE_ROLES),
    }),
  ),
});
export type ConsoleSession = z.infer<typeof consoleSessionSchema>;

/** `POST /_console/auth/sign-in`'s body in apikey mode. */
export const apiKeySignInSchema = z.object({ apiKey: z.string() });
export type ApiKeySignIn = z.infer<typeof apiKeySignInSchema>;
