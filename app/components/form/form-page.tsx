import type { FormEventHandler, ReactNode, Ref } from "react";
import { FormHeader } from "~/components/page-actions";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { cn } from "~/lib/cn";

/**
 * A form that is a page of its own (add or edit a record): its header with Cancel back to where it
 * came from and Save, then its sections. The browser's own checks are off (`noValidate`): the form's
 * zod schema checks it (docs/rules/console.md "Forms").
 */
export function FormPage({
  onSubmit,
  title,
  cancelTo,
  sending,
  formRef,
  children,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  title: string;
  cancelTo: string;
  /** What sends the form (its fetcher): Save waits while it is busy. */
  sending: { state: string };
  /** Where the form's problems are read from (`useFormProblems`). */
  formRef?: Ref<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <FormHeader title={title} cancelTo={cancelTo} saving={sending.state !== "idle"} />
      {children}
    </form>
  );
}

/** Field grids of a form section: two columns from small screens, or three from large ones. */
const COLUMNS = { two: "sm:grid-cols-2", three: "sm:grid-cols-2 lg:grid-cols-3" } as const;

/**
 * A card of a form's fields laid out in a grid; titled (and described) where the form has several
 * sections. `className` adds to the grid (e.g. `items-start` where fields have hints).
 */
export function FormSection({
  title,
  description,
  columns = "two",
  className,
  children,
}: {
  title?: string;
  description?: ReactNode;
  columns?: keyof typeof COLUMNS;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card>
      {title && (
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
      )}
      <CardContent className={cn("grid gap-4", !title && "pt-6", COLUMNS[columns], className)}>{children}</CardContent>
    </Card>
  );
}
