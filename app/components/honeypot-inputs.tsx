/**
 * The anti-spam fields of a form (app/utils/honeypot.server.ts): a text field hidden from people
 * and from assistive technology (a bot fills it), and the signed token. Neither takes focus or is
 * filled in by the browser. The label in the page's language (a bot may read it).
 */
import type { HoneypotFields } from '~/utils/honeypot.server';
import { useT } from '~/i18n/i18n';
import common from '~/i18n/compiled/ko/common.js';

export function HoneypotInputs({ fields }: { fields: HoneypotFields }) {
  const t = useT(common);
  return (
    <div hidden aria-hidden="true">
      <label htmlFor={fields.nameField}>{t('form.honeypot')}</label>
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
