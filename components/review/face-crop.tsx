import type { ReviewFace } from "./api";

/** A face crop drawn from the whole image with CSS (no canvas, no extra request): the square crop FairFace saw. */
export function FaceCrop({ face, size }: { face: Pick<ReviewFace, "crop" | "imageUrl" | "image">; size: number }) {
  const { crop, image } = face;
  const side = Math.max(crop.x2 - crop.x1, crop.y2 - crop.y1, 1);
  const s = size / side;
  return (
    <div
      role="img"
      aria-label="face crop"
      className="rounded bg-slate-100 bg-no-repeat"
      style={{
        width: size,
        height: size,
        backgroundImage: `url(${face.imageUrl})`,
        backgroundSize: `${image.width * s}px ${image.height * s}px`,
        backgroundPosition: `${-crop.x1 * s}px ${-crop.y1 * s}px`,
      }}
    />
  );
}
