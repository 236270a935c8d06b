import { parseWithZod } from '@conform-to/zod';
import { LoginFormSchema, SetupFormSchema } from '~/utils/admin-forms';

const formOf = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe('the sign-in form', () => {
  it('refuses a NUL or a line break in the username with its message, before any call to the api', () => {
    for (const username of ['ad\u0000min', 'admin\r\nX: y']) {
      const submission = parseWithZod(formOf({ username, password: 'x' }), { schema: LoginFormSchema });
      expect(submission.status).toBe('error');
      expect(submission.reply().error?.username).toEqual(['아이디에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.']);
    }
  });

  it('takes any redirectTo (the action keeps it to a path of this site), and a username padded with spaces', () => {
    const submission = parseWithZod(formOf({ username: ' Admin ', password: 'x', redirectTo: '/admin-only\u0000x' }), {
      schema: LoginFormSchema,
    });
    expect(submission.status).toBe('success');
    expect(submission.status === 'success' && submission.value.username).toBe('admin');
  });
});

describe('the setup form', () => {
  it('refuses a control character in the new username and password', () => {
    const form = {
      token: 't',
      username: 'ad\u2028min',
      password: 'p\u0000'.repeat(7),
      passwordConfirm: 'p\u0000'.repeat(7),
    };
    const submission = parseWithZod(formOf(form), { schema: SetupFormSchema });
    const { error } = submission.reply();
    expect(error?.username?.[0]).toBe('아이디에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.');
    expect(error?.password?.[0]).toBe('비밀번호에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.');
  });
});
