/**
 * The ad application's image picker (docs/product.md §5): it will not open before an ad type is
 * chosen; the picked file's type is read from its first bytes and its pixel size is shown beside the
 * hint for the type (a different size is a warning, not a refusal). A refused file is dropped from
 * the input and the refusal becomes the field's `problem`, which the page owns so that its error
 * summary says the same words as the field (not the missing image's).
 */
import { getInputProps } from '@conform-to/react';
import { useEffect, useRef, useState, type ChangeEvent, type MouseEvent } from 'react';
import { AD_FORMAT_MESSAGES, AD_IMAGE_SIZE, AD_MESSAGES, type AdType } from '../../contract/ads';
import { FieldError } from '~/components/forms';
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
  const [picked, setPicked] = useState<{ width: number; height: number } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // Choosing a type answers the refusal to open the picker.
  useEffect(() => {
    if (type && problem === AD_MESSAGES.typeBeforeImage) onProblem(null);
  }, [type, problem, onProblem]);
  const { key, ...props } = getInputProps(meta, { type: 'file', ariaDescribedBy: `${meta.id}-hint` });
  // The refusal and the type check are this field's own errors: read with the input, like conform's.
  const describedBy = problem ? `${meta.id}-hint ${meta.errorId}` : props['aria-describedby'];
  const hint = type ? AD_IMAGE_SIZE[type] : null;

  const refuseWithoutType = (event: MouseEvent<HTMLInputElement>) => {
    if (type) return;
    event.preventDefault();
    onProblem(AD_MESSAGES.typeBeforeImage);
  };
  const inspect = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    setPicked(null);
    onProblem(null);
    if (!file) return;
    const extension = detectImageType(new Uint8Array(await file.slice(0, 4).arrayBuffer()));
    if (!extension) {
      if (input.current) input.current.value = '';
      onProblem(AD_FORMAT_MESSAGES.imageType);
      return;
    }
    const bitmap = await createImageBitmap(file).catch(() => null);
    if (bitmap) setPicked({ width: bitmap.width, height: bitmap.height });
    bitmap?.close();
  };

  return (
    <div className="field">
      <label htmlFor={meta.id} className="field__label">
        광고 이미지
      </label>
      <p id={`${meta.id}-hint`} className="field__hint">
        JPG, PNG, GIF · 5MB 이하 · 권장 크기{' '}
        {hint
          ? `${hint.width}×${hint.height}`
          : `웹 ${AD_IMAGE_SIZE.web.width}×${AD_IMAGE_SIZE.web.height}, 챗봇 ${AD_IMAGE_SIZE.kakao.width}×${AD_IMAGE_SIZE.kakao.height}`}
        {failedBefore && ' · 이미지는 다시 선택해주세요.'}
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
            선택한 이미지: {picked.width}×{picked.height}
            {(picked.width !== hint.width || picked.height !== hint.height) && (
              <span className="field__warning">
                {' '}
                권장 크기({hint.width}×{hint.height})와 달라 잘리거나 늘어나 보일 수 있습니다. 그대로 신청할 수도
                있습니다.
              </span>
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
