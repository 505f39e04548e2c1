import { useTranslation } from "react-i18next";
import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { PageHeader } from "~/components/shell/page-header";
import { MailForm } from "./mail-form";
import { loadPlatformMail, savePlatformMail } from "./platform-mail.server";

/**
 * The platform's mail server (docs/rules/platform.md "The platform's menus"), on `/platform/mail`:
 * the same form and test send as an operator's mail tab.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadPlatformMail(args);
}

export function action(args: ActionFunctionArgs) {
  return savePlatformMail(args);
}

export default function PlatformMail() {
  const { mail } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("menu.platform.mail")} description={t("mail.platform.description")} />
      <MailForm mail={mail} />
    </div>
  );
}
