import { Upload } from "lucide-react";
import { useRef } from "react";
import { Button } from "~/components/ui/button";

/** A button that picks one file and hands it over (the screen posts it as multipart form data). */
export function UploadButton({ label, accept, busy, onFile }: { label: string; accept?: string; busy: boolean; onFile: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={accept}
        className="sr-only"
        tabIndex={-1}
        aria-label={label}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = "";
        }}
      />
      <Button type="button" disabled={busy} onClick={() => input.current?.click()}>
        <Upload aria-hidden />
        {label}
      </Button>
    </>
  );
}
