import { cn } from "~/lib/cn";

/**
 * What went wrong, in red and read out as it appears (`role="alert"`): small under the field it
 * belongs to (`field`), or plain text under a part of a page. Nothing while there is no message.
 */
export function ErrorText({ message, id, field = false, className }: { message: string | null | undefined | false; id?: string; field?: boolean; className?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className={cn(field ? "text-xs font-medium text-destructive" : "text-sm text-destructive", className)}>
      {message}
    </p>
  );
}
