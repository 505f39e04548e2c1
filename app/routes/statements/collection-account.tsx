import { zodResolver } from "@hookform/resolvers/zod";
import { Save } from "lucide-react";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useRevalidator, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { z } from "zod";
import { collectionAccountInput } from "../../../domain/schemas/statements";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { TextField } from "~/components/form/fields";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { toast } from "~/components/ui/toast";
import { loadCollectionAccount, saveCollectionAccount } from "./statements.server";

/**
 * Finance › Collection account: the operator's charge, clearing, card-payment and PayPal accounts,
 * and what it collected per type and payment way in a period (docs/rules/statements.md
 * "Collection account").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadCollectionAccount(args);
}

export function action(args: ActionFunctionArgs) {
  return saveCollectionAccount(args);
}

type FormValues = z.input<typeof collectionAccountInput>;
const FIELDS = ["chargeAccount", "clearingAccount", "cardPaymentAccount", "paypalAccount"] as const;

export default function CollectionAccount() {
  const { account, period, totals, error } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money, number } = useFormat();
  const fetcher = useFetcher<typeof action>();
  const revalidator = useRevalidator();
  const form = useForm<FormValues>({
    resolver: zodResolver(collectionAccountInput) as unknown as Resolver<FormValues>,
    defaultValues: Object.fromEntries(FIELDS.map((f) => [f, account[f] ?? ""])) as FormValues,
  });
  useActionOutcome(
    fetcher,
    () => {
      toast.success(t("statements.collection.saved"));
      void revalidator.revalidate();
    },
    (name, message) => form.setError(name as keyof FormValues, { message }),
  );
  const submit = form.handleSubmit((values) => fetcher.submit(JSON.stringify(values), { method: "post", encType: "application/json" }));
  const title = t("statements.collection.title");
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} />
      <form onSubmit={submit} noValidate>
        <Card>
          <CardHeader>
            <CardTitle>{t("statements.collection.accounts")}</CardTitle>
            <CardDescription>{t("statements.collection.accountsHint")}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            {FIELDS.map((name) => (
              <TextField key={name} control={form.control} name={name} label={t(`statements.collection.${name}`)} autoComplete="off" />
            ))}
            <div className="sm:col-span-2">
              <Button type="submit" disabled={fetcher.state !== "idle"}>
                <Save aria-hidden />
                {t("statements.collection.save")}
              </Button>
            </div>
          </CardContent>
        </Card>
      </form>
      <h2 className="text-lg font-semibold">{t("statements.collection.totals")}</h2>
      <DataTableToolbar>
        <DateRangePicker daysOnly required defaultFrom={period.from} defaultTo={period.to} />
      </DataTableToolbar>
      {error && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
          {error}
        </p>
      )}
      {totals && (
        <Card className="py-0">
          <div className="overflow-x-auto" role="region" aria-label={t("statements.collection.totals")} tabIndex={0}>
            <Table aria-label={t("statements.collection.totals")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("statements.collection.type")}</TableHead>
                  <TableHead>{t("statements.collection.paymentMethod")}</TableHead>
                  <TableHead className="text-right">{t("statements.collection.count")}</TableHead>
                  <TableHead className="text-right">{t("statements.collection.amount")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {totals.records.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={4} className="py-8 text-center text-muted-foreground">
                      {t("statements.collection.empty")}
                    </TableCell>
                  </TableRow>
                ) : (
                  totals.records.map((r) => (
                    <TableRow key={`${r.type}-${r.paymentMethod}`}>
                      <TableCell>{t(`statements.collection.types.${r.type}`)}</TableCell>
                      <TableCell>{r.paymentMethod}</TableCell>
                      <TableCell className="text-right tabular-nums">{number(r.count, 0)}</TableCell>
                      <TableCell className="text-right tabular-nums">{money(r.amount)}</TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
              <TableFooter>
                {(["recharge", "charging"] as const).map((k) => (
                  <TableRow key={k}>
                    <TableCell colSpan={3}>{t(`statements.collection.types.${k === "recharge" ? "Recharge" : "Charging"}`)}</TableCell>
                    <TableCell className="text-right tabular-nums">{money(totals.totals[k])}</TableCell>
                  </TableRow>
                ))}
                <TableRow>
                  <TableCell colSpan={3} className="font-semibold">
                    {t("statements.collection.all")}
                  </TableCell>
                  <TableCell className="text-right font-semibold tabular-nums">{money(totals.totals.all)}</TableCell>
                </TableRow>
              </TableFooter>
            </Table>
          </div>
        </Card>
      )}
    </div>
  );
}
