import QRCode from "qrcode";
import { useMemo } from "react";
import { cn } from "~/lib/cn";

/**
 * A QR code drawn as SVG paths (the point number, 88×88, medium error correction;
 * docs/rules/equipment.md "Point pages"). Built from the code's module matrix, so it renders the same on the server and in
 * the browser, without a canvas.
 */
export function QrCode({ value, size = 88, label, className }: { value: string; size?: number; label: string; className?: string }) {
  const { path, count } = useMemo(() => {
    const { modules } = QRCode.create(value, { errorCorrectionLevel: "M" });
    const parts: string[] = [];
    for (let row = 0; row < modules.size; row++) {
      for (let column = 0; column < modules.size; column++) {
        if (modules.get(row, column)) parts.push(`M${column + 1} ${row + 1}h1v1h-1z`);
      }
    }
    return { path: parts.join(""), count: modules.size + 2 };
  }, [value]);
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
      <path d={path} fill="#0b1215" />
    </svg>
  );
}
