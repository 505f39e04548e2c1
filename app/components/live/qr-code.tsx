import QRCode from "qrcode";
import { useMemo } from "react";
import { cn } from "~/lib/cn";

/** The code's dark modules as one SVG path, medium error correction, from its module matrix: no canvas, the same on the server and in the browser. */
function qrPath(value: string) {
  const { modules } = QRCode.create(value, { errorCorrectionLevel: "M" });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (modules.get(row, column)) parts.push(`M${column + 1} ${row + 1}h1v1h-1z`);
    }
  }
  // One module of quiet zone on each side.
  return { path: parts.join(""), count: modules.size + 2 };
}

const DARK = "#0b1215";

/** A QR code drawn as SVG paths (a point's public page, 88×88; docs/rules/equipment.md "Point pages"). */
export function QrCode({ value, size = 88, label, className }: { value: string; size?: number; label: string; className?: string }) {
  const { path, count } = useMemo(() => qrPath(value), [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${count} ${count}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className={cn("rounded-sm bg-white", className)}
    >
      <path d={path} fill={DARK} />
    </svg>
  );
}

/**
 * The same code as an image of its own (an SVG file with its white ground), which an operator can
 * save or print from the browser; `data-qr-value` says what it encodes.
 */
export function QrImage({ value, size = 88, label, className, ...rest }: { value: string; size?: number; label: string; className?: string; "data-testid"?: string }) {
  const src = useMemo(() => {
    const { path, count } = qrPath(value);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${count} ${count}" width="${size}" height="${size}" shape-rendering="crispEdges"><rect width="${count}" height="${count}" fill="#ffffff"/><path d="${path}" fill="${DARK}"/></svg>`;
    return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  }, [value, size]);
  return <img src={src} width={size} height={size} alt={label} data-qr-value={value} className={className} {...rest} />;
}
