/**
 * A managed ad's card in edit (docs/product.md §4.6 Ad edit card): its image box and its form of
 * title, link and a replacement image; 'done' saves, or with nothing changed only leaves edit mode.
 * A replacement picked (a jpg, png or gif by its first bytes) shows in the image box before 'done'
 * (with JavaScript; without it the file is only sent).
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import { Form, Link, useNavigate, useNavigation } from '@remix-run/react';
import { useEffect, useState, type ChangeEvent, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { ADMIN_MESSAGES } from '../../../contract/admin';
import type { AdType, ManagedAd } from '../../../contract/ads';
import { AdThumb } from '~/components/admin/ad-thumb';
import { FieldError } from '~/components/forms';
import { detectImageType } from '~/utils/ad-application';
import { AdEditFormSchema } from '~/utils/admin-ads';
import { useObjectUrl } from '~/hooks/use-object-url';

export function AdEditForm({
  ad,
  type,
  page,
  titleId,
  lastResult,
}: {
  ad: ManagedAd;
  type: AdType;
  page: string;
  titleId: string;
  /** The action's answer to the last submission, if any. */
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [replacement, setReplacement] = useState<File | null>(null);
  const previewUrl = useObjectUrl(replacement);
  // Only an image by its first bytes is previewed; the action refuses anything else on 'done'.
  const pickImage = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0] ?? null;
    const isImage = file !== null && detectImageType(new Uint8Array(await file.slice(0, 4).arrayBuffer())) !== null;
    // A later pick may have answered first: only the input's current file counts.
    if (input.files?.[0] === file) setReplacement(isImage ? file : null);
  };
  const navigation = useNavigation();
  const navigate = useNavigate();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const [form, fields] = useForm({
    id: `ad-edit-${ad.id}`,
    lastResult: navigation.state === 'idle' ? lastResult : undefined,
    defaultValue: {
      id: String(ad.id),
      version: ad.version ?? '',
      title: ad.title ?? '',
      redirectUrl: ad.redirectUrl ?? '',
    },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdEditFormSchema }),
  });
  // docs/product.md §4: done with title, link and image unchanged sends nothing; it only leaves edit mode.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const data = new FormData(event.currentTarget);
    const file = data.get('image');
    const same = (name: 'title' | 'redirectUrl') => String(data.get(name) ?? '').trim() === (ad[name] ?? '');
    if (same('title') && same('redirectUrl') && !(file instanceof File && file.size > 0)) {
      event.preventDefault();
      navigate(page, { replace: true, preventScrollReset: true });
    }
  };
  // conform remounts the file input (a new key) when it resets it, after a refused save: the preview goes with it.
  const imageKey = fields.image.key;
  useEffect(() => setReplacement(null), [imageKey]);
  const formError = form.errors?.[0];
  const name = ad.title ?? ADMIN_MESSAGES.noTitle;
  return (
    <>
      <AdThumb
        type={type}
        imageUrl={ad.imageUrl}
        preview={previewUrl ? { src: previewUrl, alt: `${name}의 새 이미지 미리보기` } : null}
      />
      <Form
        method="post"
        action={`${page}?edit=${ad.id}`}
        encType="multipart/form-data"
        className="ad-card__body ad-card__form"
        preventScrollReset
        {...getFormProps(form)}
        onSubmit={(event) => {
          onSubmit(event);
          if (!event.defaultPrevented) form.onSubmit(event);
        }}
      >
        <p id={titleId} className="sr-only">
          {name} 수정 중
        </p>
        <input {...getInputProps(fields.id, { type: 'hidden' })} key={fields.id.key} />
        <input {...getInputProps(fields.version, { type: 'hidden' })} key={fields.version.key} />
        {formError && (
          <p className="admin-error" role="alert">
            {formError}
          </p>
        )}
        <LabeledInput meta={fields.title} type="text" label="제목" className="field__control" />
        <LabeledInput
          meta={fields.redirectUrl}
          type="url"
          label="링크"
          className="field__control"
          placeholder="https://"
        />
        <LabeledInput
          meta={fields.image}
          type="file"
          label={
            <>
              이미지 바꾸기 <span className="field__optional">(JPG, PNG, GIF · 5MB 이하)</span>
            </>
          }
          accept="image/jpeg,image/png,image/gif"
          className="ad-card__file"
          onChange={pickImage}
        />
        <p className="field__hint" aria-live="polite">
          {replacement ? '새 이미지를 카드에 미리 보여드립니다. done을 눌러야 저장됩니다.' : ''}
        </p>
        <div className="ad-card__actions">
          <button
            type="submit"
            name="intent"
            value="save"
            className="button button--small button--primary"
            disabled={saving}
          >
            {saving ? '저장 중…' : 'done'}
          </button>
          <Link to={page} className="button button--small" replace preventScrollReset>
            취소
          </Link>
        </div>
      </Form>
    </>
  );
}

/** One field of the card's form: its label, its input (conform's props, then `attributes`) and its error. */
function LabeledInput({
  meta,
  type,
  label,
  ...attributes
}: {
  meta: Parameters<typeof getInputProps>[0];
  type: 'text' | 'url' | 'file';
  label: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <>
      <label htmlFor={meta.id} className="field__label">
        {label}
      </label>
      <input {...getInputProps(meta, { type })} key={meta.key} {...attributes} />
      <FieldError meta={meta} />
    </>
  );
}
