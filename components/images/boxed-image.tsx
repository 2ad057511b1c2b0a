// An image with its faces' boxes drawn over it, each numbered as the face is listed beside it (face 1, face 2 …), so
// a label can be matched to its face at a glance. Opens the whole image in a new tab.

export interface BoxedFace {
  box: [number, number, number, number];
  /** the number shown in the box and beside its label */
  n: number;
}

export function BoxedImage({
  id,
  width,
  height,
  faces,
  className = "w-40",
}: {
  id: string;
  width?: number;
  height?: number;
  faces: readonly BoxedFace[];
  className?: string;
}) {
  return (
    <a
      href={`/api/images/${id}`}
      target="_blank"
      rel="noopener"
      className={`relative block ${className}`}
      aria-label={`open the whole image${faces.length ? ` (${faces.length} face${faces.length === 1 ? "" : "s"}, numbered)` : ""}`}
    >
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={`/api/images/${id}`} alt="" loading="lazy" className="block w-full rounded" />
      {width && height && faces.length > 0 && (
        <>
          {/* Boxes in image coordinates with a stroke of 2 screen pixels, and numbers in screen pixels: legible on a
              160 px thumbnail of a 1024 px image as on the image itself. */}
          <svg
            viewBox={`0 0 ${width} ${height}`}
            preserveAspectRatio="none"
            className="pointer-events-none absolute inset-0 h-full w-full"
            aria-hidden
            data-testid="face-boxes"
          >
            {faces.map(({ box, n }) => (
              <rect
                key={n}
                x={box[0]}
                y={box[1]}
                width={box[2] - box[0]}
                height={box[3] - box[1]}
                fill="none"
                stroke="#facc15"
                strokeWidth={2}
                vectorEffect="non-scaling-stroke"
              />
            ))}
          </svg>
          {faces.map(({ box, n }) => (
            <span
              key={n}
              aria-hidden
              className="pointer-events-none absolute rounded-sm bg-black/75 px-1 text-[11px] font-bold leading-4 text-yellow-300"
              style={{ left: `${(Math.max(0, box[0]) / width) * 100}%`, top: `${(Math.max(0, box[1]) / height) * 100}%` }}
            >
              {n}
            </span>
          ))}
        </>
      )}
    </a>
  );
}
