/**
 * The pieces the admin sign-in and first-admin setup forms share: the form's alert and the
 * username and password fields, labelled and with the autocomplete a password manager reads.
 */
import type { ComponentProps } from 'react';
import { TextField } from '~/components/forms';

type Meta = ComponentProps<typeof TextField>['meta'];

/**
 * The form's message (a refusal or the form's error) as an alert. The region is always rendered, so
 * a screen reader announces a message when it appears.
 */
export function FormAlert({ message }: { message?: string | null }) {
  return (
    <div role="alert" className="form-status">
      {message && <p className="admin-error">{message}</p>}
    </div>
  );
}

/**
 * 아이디 and 비밀번호. `password` is "current-password" to sign in and "new-password" to create an
 * account, so a password manager fills the one and offers to save the other.
 */
export function CredentialFields({
  fields,
  password,
  hints = {},
}: {
  fields: { username: Meta; password: Meta };
  password: 'current-password' | 'new-password';
  hints?: { username?: string; password?: string };
}) {
  return (
    <>
      <TextField
        meta={fields.username}
        label="아이디"
        hint={hints.username}
        inputProps={{ autoComplete: 'username', autoCapitalize: 'none', spellCheck: false }}
      />
      <TextField
        meta={fields.password}
        label="비밀번호"
        hint={hints.password}
        inputProps={{ type: 'password', autoComplete: password }}
      />
    </>
  );
}
