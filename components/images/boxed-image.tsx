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
        <svg viewBox={`0 0 ${width} ${height}`} className="pointer-events-none absolute inset-0 h-full w-full" aria-hidden data-testid="face-boxes">
          {faces.map(({ box, n }) => (
            <g key={n}>
              <rect
                x={box[0]}
                y={box[1]}
                width={box[2] - box[0]}
                height={box[3] - box[1]}
                fill="none"
                stroke="#facc15"
                strokeWidth={Math.max(2, width / 160)}
              />
              <text
                x={box[0] + 4}
                y={box[1] + Math.max(14, width / 20)}
                fill="#facc15"
                stroke="#000"
                strokeWidth={Math.max(0.5, width / 800)}
                fontSize={Math.max(14, width / 20)}
                fontWeight={700}
              >
                {n}
              </text>
            </g>
          ))}
        </svg>
      )}
    </a>
  );
}
