/**
 * The image box of an ad edit card (docs/product.md §2.10.3): the ad's image, 'no image' without one,
 * or while editing the replacement picked (a preview, before 'done' saves it). The box keeps the ad
 * type's size hint as its aspect ratio, so no image moves the card.
 */
import { ADMIN_MESSAGES } from '../../../contract/admin';
import { AD_IMAGE_SIZE, type AdType } from '../../../contract/ads';
import { isShowableImage } from '~/utils/admin-ads';

export function AdThumb({
  type,
  imageUrl,
  preview = null,
}: {
  type: AdType;
  imageUrl: string | null;
  /** The picked replacement: its object URL and its alternative text. */
  preview?: { src: string; alt: string } | null;
}) {
  const size = AD_IMAGE_SIZE[type];
  return (
    <div className="ad-card__thumb" style={{ aspectRatio: `${size.width} / ${size.height}` }}>
      {preview ? (
        <img src={preview.src} alt={preview.alt} width={size.width} height={size.height} />
      ) : isShowableImage(imageUrl) ? (
        <img src={imageUrl} alt="" width={size.width} height={size.height} />
      ) : (
        <span>{ADMIN_MESSAGES.noImage}</span>
      )}
    </div>
  );
}
