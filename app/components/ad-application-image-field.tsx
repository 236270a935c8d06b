/**
 * The ad application's image picker (docs/product.md §5): it will not open before an ad type is
 * chosen; the picked file's type is read from its first bytes and its pixel size is shown beside the
 * hint for the type (a different size is a warning, not a refusal). A refused file is dropped from
 * the input and the refusal becomes the field's `problem`, which the page owns so that its error
 * summary says the same words as the field (not the missing image's). In the page's language (ADR 032).
 */
import { getInputProps } from '@conform-to/react';
import { useEffect, useRef, useState, type ChangeEvent, type MouseEvent } from 'react';
import { AD_IMAGE_SIZE, type AdType } from '../../contract/ads';
import { FieldError } from '~/components/forms';
import { useT } from '~/i18n/i18n';
import ads from '~/i18n/compiled/ko/ads.js';
import { detectImageType } from '~/utils/ad-application';

export function AdApplicationImageField({
  meta,
  type,
  failedBefore,
  problem,
  onProblem,
}: {
  meta: Parameters<typeof getInputProps>[0];
  type: AdType | undefined;
  failedBefore: boolean;
  /** Why the picker refused to open or the file picked was dropped; null when it did not. */
  problem: string | null;
  onProblem: (problem: string | null) => void;
}) {
  const t = useT(ads);
  const typeFirst = t('check.typeBeforeImage');
  const [picked, setPicked] = useState<{ width: number; height: number } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // Choosing a type answers the refusal to open the picker.
  useEffect(() => {
    if (type && problem === typeFirst) onProblem(null);
  }, [type, problem, onProblem, typeFirst]);
  const { key, ...props } = getInputProps(meta, { type: 'file', ariaDescribedBy: `${meta.id}-hint` });
  // The refusal and the type check are this field's own errors: read with the input, like conform's.
  const describedBy = problem ? `${meta.id}-hint ${meta.errorId}` : props['aria-describedby'];
  const hint = type ? AD_IMAGE_SIZE[type] : null;

  const refuseWithoutType = (event: MouseEvent<HTMLInputElement>) => {
    if (type) return;
    event.preventDefault();
    onProblem(typeFirst);
  };
  const inspect = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    setPicked(null);
    onProblem(null);
    if (!file) return;
    const extension = detectImageType(new Uint8Array(await file.slice(0, 4).arrayBuffer()));
    if (!extension) {
      if (input.current) input.current.value = '';
      onProblem(t('check.imageType'));
      return;
    }
    const bitmap = await createImageBitmap(file).catch(() => null);
    if (bitmap) setPicked({ width: bitmap.width, height: bitmap.height });
    bitmap?.close();
  };

  return (
    <div className="field">
      <label htmlFor={meta.id} className="field__label">
        {t('apply.image')}
      </label>
      <p id={`${meta.id}-hint`} className="field__hint">
        {t('apply.imageHint', {
          size: hint
            ? `${hint.width}×${hint.height}`
            : t('apply.imageSizes', {
                web: `${AD_IMAGE_SIZE.web.width}×${AD_IMAGE_SIZE.web.height}`,
                kakao: `${AD_IMAGE_SIZE.kakao.width}×${AD_IMAGE_SIZE.kakao.height}`,
              }),
        })}
        {failedBefore && t('apply.imageAgain')}
      </p>
      <input
        key={key}
        {...props}
        aria-describedby={describedBy}
        aria-invalid={problem ? true : props['aria-invalid']}
        ref={input}
        accept="image/png,image/jpeg,image/gif"
        className="field__control field__control--file"
        onClick={refuseWithoutType}
        onChange={inspect}
      />
      <p className="field__picked" aria-live="polite">
        {picked && hint && (
          <>
            {t('apply.picked', picked)}
            {(picked.width !== hint.width || picked.height !== hint.height) && (
              <span className="field__warning"> {t('apply.pickedOff', hint)}</span>
            )}
          </>
        )}
      </p>
      {problem ? (
        <p id={meta.errorId} className="field__error" role="alert">
          {problem}
        </p>
      ) : (
        <FieldError meta={meta} />
      )}
    </div>
  );
}
