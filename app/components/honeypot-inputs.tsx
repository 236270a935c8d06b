/**
 * The anti-spam fields of a form (app/utils/honeypot.server.ts): a text field hidden from people
 * and from assistive technology (a bot fills it), and the signed token. Neither takes focus or is
 * filled in by the browser.
 */
import type { HoneypotFields } from '~/utils/honeypot.server';

export function HoneypotInputs({ fields }: { fields: HoneypotFields }) {
  return (
    <div hidden aria-hidden="true">
      <label htmlFor={fields.nameField}>이 칸은 비워두세요</label>
      <input
        id={fields.nameField}
        name={fields.nameField}
        type="text"
        defaultValue=""
        autoComplete="off"
        tabIndex={-1}
      />
      <input type="hidden" name={fields.tokenField} value={fields.token} />
    </div>
  );
}
