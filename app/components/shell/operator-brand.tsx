import { cn } from "~/lib/cn";

/** The operator's logo, or its initial on a green badge when it has none. */
export function OperatorBrand({
  name,
  logoUrl,
  className,
}: {
  name: string;
  logoUrl: string | null;
  className?: string;
}) {
  return (
    <div className={cn("flex min-w-0 items-center gap-2.5", className)}>
      {logoUrl ? (
        <img src={logoUrl} alt="" width={32} height={32} className="size-8 shrink-0 rounded-md object-contain" />
      ) : (
        <span
          aria-hidden
          className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary text-sm font-semibold text-primary-foreground"
        >
          {name.trim().charAt(0).toUpperCase() || "·"}
        </span>
      )}
      <span className="hidden truncate text-sm font-semibold sm:block">{name}</span>
      <span className="sr-only sm:hidden">{name}</span>
    </div>
  );
}
