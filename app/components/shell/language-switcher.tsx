import { useRevalidator } from "react-router";
import { useTranslation } from "react-i18next";
import { ChevronDown, Languages } from "lucide-react";
import {
  intlLocale,
  LANGUAGE_COOKIE,
  LANGUAGE_NAMES,
  LANGUAGES,
  parseLanguage,
  type Language,
} from "../../../domain/languages";
import { loadCatalogue } from "../../../domain/i18n/load";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";

/** Cookies live 7 days on path / (docs/rules/console.md "Languages"). */
const COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;

export function LanguageSwitcher({ lang }: { lang: Language }) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const current = parseLanguage(i18n.language) ?? lang;

  const choose = async (code: Language) => {
    if (code === current) return;
    // The server reads the cookie, so loader data (menus, server messages) comes back in the new language.
    document.cookie = `${LANGUAGE_COOKIE}=${code}; path=/; max-age=${COOKIE_MAX_AGE_S}; samesite=lax`;
    // The browser holds its page's language only (domain/i18n/load.ts): the new one comes first,
    // and when it cannot be fetched the server renders the page in it.
    const catalogue = await loadCatalogue(code).catch(() => undefined);
    if (!catalogue) return window.location.reload();
    i18n.addResourceBundle(code, "translation", catalogue);
    document.documentElement.lang = intlLocale(code);
    void i18n.changeLanguage(code);
    void revalidator.revalidate();
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="gap-1.5 px-2.5" aria-label={t("ui.language.label", { language: LANGUAGE_NAMES[current] })}>
          <Languages aria-hidden />
          <span className="hidden text-sm md:inline">{LANGUAGE_NAMES[current]}</span>
          <ChevronDown className="hidden size-3.5 opacity-60 md:block" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-52">
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">{t("ui.language.title")}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={current} onValueChange={(value) => void choose(parseLanguage(value) ?? current)}>
          {LANGUAGES.map((code) => (
            <DropdownMenuRadioItem key={code} value={code} lang={intlLocale(code)}>
              {LANGUAGE_NAMES[code]}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
