/**
 * The zod schemas of the admin sign-in and setup forms (one schema per form, used by
 * conform in the browser and by the action), with their Korean messages.
 */
import { z } from 'zod';
import { AdminUsernameSchema, NewPasswordSchema } from '../../contract/admin';
import { oneLineText, text, trimmedLine } from '../../contract/strings';

/**
 * /admin-only/login. The password is only required here (and free of NUL): the api checks it. The
 * username is one line (contract/strings.ts), as every admin username is.
 */
export const LoginFormSchema = z.object({
  username: trimmedLine('아이디', { required_error: '아이디를 입력해주세요.' })
    .toLowerCase()
    .min(1, '아이디를 입력해주세요.')
    .max(64, '아이디가 너무 깁니다.'),
  password: text({ required_error: '비밀번호를 입력해주세요.' }).max(1024, '비밀번호가 너무 깁니다.'),
  // Never stored or shown: safeRedirectTo keeps a path of this site, whatever was sent (even CR, LF or NUL).
  redirectTo: z.string().optional(),
});

/** /admin-only/setup: the first admin's account; the password twice. */
export const SetupFormSchema = z
  .object({
    token: oneLineText('설정 링크', { required_error: '설정 링크가 올바르지 않습니다.' }),
    username: AdminUsernameSchema,
    password: NewPasswordSchema,
    passwordConfirm: text({ required_error: '비밀번호를 한 번 더 입력해주세요.' }),
  })
  .refine((form) => form.password === form.passwordConfirm, {
    path: ['passwordConfirm'],
    message: '비밀번호가 서로 다릅니다.',
  });

/**
 * How long the admin pages tell a person to wait after the api's 429: its Retry-After (seconds) in
 * whole minutes, rounded up, at least 1.
 */
export function minutesToWait(retryAfterSec: number): number {
  return Math.max(1, Math.ceil(retryAfterSec / 60));
}
