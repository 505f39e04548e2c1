import { CreditCard, Receipt, Square, Zap } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AdHocOffer, AdHocView } from "../../../domain/schemas/ad-hoc";
import { formatNumber, type NumberStyle } from "../../../domain/format";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { ApiError, usePublicApi } from "~/lib/api";
import { ErrorText } from "~/components/form/error-text";

/**
 * Ad-hoc payment on a charger's public page (docs/rules/payments.md "Ad-hoc payment"), per
 * connector, mobile first: "Start charging" → an optional e-mail for the receipt → the card
 * (Stripe's Payment Element with the channel's publishable key, or the local test double's card
 * form, labelled test mode) → the session followed live (status, energy, running cost, time) →
 * Stop → the receipt. The handle is kept for the tab, so a reload follows the same session.
 */

const POLL_MS = 3_000;
const STRIPE_JS = "https://js.stripe.com/v3";

type Stage = { kind: "idle" } | { kind: "email"; offer: AdHocOffer } | { kind: "card"; offer: AdHocOffer; clientSecret: string; handle: string } | { kind: "follow"; handle: string };

/** What the page needs of Stripe.js (loaded only when the channel is Stripe's own). */
interface StripeJs {
  elements(options: { clientSecret: string }): { create(kind: "payment"): { mount(el: HTMLElement): void } };
  confirmPayment(options: { elements: unknown; redirect: "if_required" }): Promise<{ error?: { message?: string } }>;
}
declare global {
  interface Window {
    Stripe?: (key: string) => StripeJs;
  }
}

/** A call of the public API as the panel shows it: the answer, or the refusal's message. */
function settled<T>(call: Promise<T>): Promise<{ ok: true; data: T } | { ok: false; msg: string }> {
  return call.then(
    (data) => ({ ok: true, data }),
    (error: unknown) => ({ ok: false, msg: error instanceof ApiError ? error.message : String(error) }),
  );
}

const storageKey = (serialNumber: string, connectorId: number) => `plugdesk.adHoc.${serialNumber}.${connectorId}`;

export function AdHocPanel({ serialNumber, connectorId, startable, style }: { serialNumber: string; connectorId: number; startable: boolean; style: NumberStyle }) {
  const { t } = useTranslation();
  const api = usePublicApi();
  const [stage, setStage] = useState<Stage>({ kind: "idle" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const handle = sessionStorage.getItem(storageKey(serialNumber, connectorId));
    if (handle) setStage({ kind: "follow", handle });
  }, [serialNumber, connectorId]);

  const begin = async () => {
    setError(null);
    setBusy(true);
    const offer = await settled(api.get("/public-service/charger/{serialNumber}/ad-hoc", { params: { serialNumber } }));
    setBusy(false);
    if (!offer.ok) return setError(offer.msg);
    if (!offer.data.available) return setError(t("adHoc.panel.unavailable"));
    setStage({ kind: "email", offer: offer.data });
  };

  const hold = async (offer: AdHocOffer, email: string) => {
    setError(null);
    setBusy(true);
    const started = await settled(
      api.post("/public-service/charger/{serialNumber}/ad-hoc", {
        params: { serialNumber },
        body: { connectorId, ...(email.trim() ? { email: email.trim() } : {}) },
        idempotencyKey: crypto.randomUUID(),
      }),
    );
    setBusy(false);
    if (!started.ok) return setError(started.msg);
    sessionStorage.setItem(storageKey(serialNumber, connectorId), started.data.handle);
    setStage({ kind: "card", offer, ...started.data });
  };

  const reset = () => {
    sessionStorage.removeItem(storageKey(serialNumber, connectorId));
    setStage({ kind: "idle" });
  };

  return (
    <div className="rounded-xl border bg-muted/30 p-3" data-testid="ad-hoc-panel">
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        <CreditCard className="size-4" aria-hidden />
        {t("adHoc.panel.title")}
      </h3>
      {stage.kind === "idle" && (
        <Button className="mt-2 w-full" size="lg" disabled={!startable || busy} onClick={() => void begin()}>
          <Zap aria-hidden /> {t("adHoc.panel.start")}
        </Button>
      )}
      {stage.kind === "email" && <EmailStep offer={stage.offer} busy={busy} style={style} onContinue={(email) => void hold(stage.offer, email)} />}
      {stage.kind === "card" && <CardStep stage={stage} style={style} onAuthorised={() => setStage({ kind: "follow", handle: stage.handle })} />}
      {(stage.kind === "card" || stage.kind === "follow") && <FollowStep handle={stage.handle} style={style} showWaiting={stage.kind === "follow"} onAgain={reset} onAuthorised={() => stage.kind === "card" && setStage({ kind: "follow", handle: stage.handle })} />}
      {error && (
        <p role="alert" className="mt-2 text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

const holdText = (offer: AdHocOffer, style: NumberStyle) => `${formatNumber(offer.hold as `${number}`, offer.hold.split(".")[1]?.length ?? 0, style)} ${offer.currency}`;

function EmailStep({ offer, busy, style, onContinue }: { offer: AdHocOffer; busy: boolean; style: NumberStyle; onContinue: (email: string) => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  return (
    <form
      className="mt-2 flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        onContinue(email);
      }}
    >
      <p className="text-sm">{t("adHoc.panel.intro", { amount: holdText(offer, style) })}</p>
      <Label htmlFor="ad-hoc-email">{t("adHoc.panel.email")}</Label>
      <Input id="ad-hoc-email" type="email" inputMode="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <Button type="submit" size="lg" disabled={busy}>
        {t("adHoc.panel.continue")}
      </Button>
    </form>
  );
}

/** The card: the test double's form in a frame, or Stripe's Payment Element. */
function CardStep({ stage, style, onAuthorised }: { stage: Extract<Stage, { kind: "card" }>; style: NumberStyle; onAuthorised: () => void }) {
  const { t } = useTranslation();
  const { offer, clientSecret } = stage;
  useEffect(() => {
    const heard = (event: MessageEvent) => {
      const data = event.data as { type?: string; status?: string } | null;
      if (data?.type === "plugdesk-test-card" && data.status === "requires_capture") onAuthorised();
    };
    window.addEventListener("message", heard);
    return () => window.removeEventListener("message", heard);
  }, [onAuthorised]);
  if (offer.testCardUrl) {
    // The double's form is its own page (the console's content policy frames no other origin); it sends the driver back here, as Stripe's redirect flow does.
    const href = `${offer.testCardUrl}?${new URLSearchParams({ client_secret: clientSecret, key: offer.publishableKey ?? "", return_url: window.location.href })}`;
    return (
      <div className="mt-2 flex flex-col gap-2">
        <p className="rounded-md bg-amber-400 px-2 py-1 text-center text-xs font-bold text-black" data-testid="ad-hoc-test-mode">
          {t("adHoc.panel.testMode")}
        </p>
        <p className="text-xs text-muted-foreground">{t("adHoc.panel.testCard")}</p>
        <Button asChild size="lg">
          <a href={href} data-testid="ad-hoc-test-card">
            <CreditCard aria-hidden /> {t("adHoc.panel.pay", { amount: holdText(offer, style) })}
          </a>
        </Button>
      </div>
    );
  }
  return <StripeElement publishableKey={offer.publishableKey ?? ""} clientSecret={clientSecret} amount={holdText(offer, style)} onAuthorised={onAuthorised} />;
}

function StripeElement({ publishableKey, clientSecret, amount, onAuthorised }: { publishableKey: string; clientSecret: string; amount: string; onAuthorised: () => void }) {
  const { t } = useTranslation();
  const mountRef = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<{ js: StripeJs; elements: unknown } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  useEffect(() => {
    const ready = () => {
      if (!window.Stripe || !mountRef.current) return;
      const js = window.Stripe(publishableKey);
      const elements = js.elements({ clientSecret });
      elements.create("payment").mount(mountRef.current);
      setStripe({ js, elements });
    };
    if (window.Stripe) return ready();
    const script = document.createElement("script");
    script.src = STRIPE_JS;
    script.onload = ready;
    document.head.appendChild(script);
  }, [publishableKey, clientSecret]);
  return (
    <div className="mt-2 flex flex-col gap-2">
      <div ref={mountRef} />
      <Button
        size="lg"
        disabled={!stripe || paying}
        onClick={async () => {
          if (!stripe) return;
          setPaying(true);
          const result = await stripe.js.confirmPayment({ elements: stripe.elements, redirect: "if_required" });
          setPaying(false);
          if (result.error) setError(result.error.message ?? t("adHoc.panel.declined"));
          else onAuthorised();
        }}
      >
        {paying ? t("adHoc.panel.paying") : t("adHoc.panel.pay", { amount })}
      </Button>
      <ErrorText message={error} />
    </div>
  );
}

const clock = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
};

/** The session followed live: its handle polled, Stop, the receipt. */
function FollowStep({ handle, style, showWaiting, onAgain, onAuthorised }: { handle: string; style: NumberStyle; showWaiting: boolean; onAgain: () => void; onAuthorised: () => void }) {
  const { t } = useTranslation();
  const api = usePublicApi();
  const [view, setView] = useState<AdHocView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stopping, setStopping] = useState(false);
  const [chargingSince, setChargingSince] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  const poll = useCallback(async () => {
    const res = await settled(api.get("/public-service/ad-hoc/{handle}", { params: { handle } }));
    if (res.ok) setView(res.data);
    else setError(res.msg);
  }, [api, handle]);

  useEffect(() => {
    void poll();
    const timer = setInterval(() => void poll().catch(() => undefined), POLL_MS);
    const tick = setInterval(() => setNow(Date.now()), 1_000);
    return () => {
      clearInterval(timer);
      clearInterval(tick);
    };
  }, [poll]);

  useEffect(() => {
    if (view && view.status !== "AWAITING_PAYMENT") onAuthorised();
    if (view?.status === "CHARGING" && chargingSince === null) setChargingSince(Date.now());
  }, [view, chargingSince, onAuthorised]);

  if (!view || (!showWaiting && view.status === "AWAITING_PAYMENT")) return error ? <p className="mt-2 text-sm text-destructive">{error}</p> : null;
  const live = view.status === "CHARGING" || view.status === "STARTING" || view.status === "AWAITING_PAYMENT";
  const decimals = view.cost.split(".")[1]?.length ?? 0;
  return (
    <div className="mt-2 flex flex-col gap-2" data-testid="ad-hoc-session" data-status={view.status}>
      <p role="status" className="text-sm font-medium" data-testid="ad-hoc-status">
        {t(`adHoc.panel.status.${view.status}`)}
      </p>
      {view.status === "FAILED" && <p className="text-sm">{t("adHoc.panel.failed")}</p>}
      {(view.status === "CHARGING" || view.status === "FINISHED") && (
        <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
          <dt className="text-muted-foreground">{t("adHoc.panel.energy")}</dt>
          <dd className="text-right font-medium tabular-nums" data-testid="ad-hoc-energy">
            {formatNumber((view.energyWh / 1000).toFixed(3) as `${number}`, 3, style)} kWh
          </dd>
          <dt className="text-muted-foreground">{t("adHoc.panel.cost")}</dt>
          <dd className="text-right font-medium tabular-nums" data-testid="ad-hoc-cost">
            {formatNumber(view.cost as `${number}`, decimals, style)} {view.currency}
          </dd>
          {chargingSince !== null && view.status === "CHARGING" && (
            <>
              <dt className="text-muted-foreground">{t("adHoc.panel.time")}</dt>
              <dd className="text-right font-medium tabular-nums">{clock(Math.max(0, Math.floor((now - chargingSince) / 1000)))}</dd>
            </>
          )}
        </dl>
      )}
      {live && (
        <Button
          variant="destructive"
          size="lg"
          disabled={stopping}
          onClick={async () => {
            setStopping(true);
            const res = await settled(api.post("/public-service/ad-hoc/{handle}/stop", { params: { handle } }));
            setStopping(false);
            if (res.ok) setView(res.data);
            else setError(res.msg);
          }}
        >
          <Square aria-hidden /> {stopping ? t("adHoc.panel.stopping") : t("adHoc.panel.stop")}
        </Button>
      )}
      {view.receiptUrl && (
        <Button asChild size="lg" variant="outline">
          <a href={view.receiptUrl} data-testid="ad-hoc-receipt">
            <Receipt aria-hidden /> {t("adHoc.panel.receipt")}
          </a>
        </Button>
      )}
      {(view.status === "FINISHED" || view.status === "FAILED") && (
        <Button variant="ghost" onClick={onAgain}>
          {t("adHoc.panel.again")}
        </Button>
      )}
      <ErrorText message={error} />
    </div>
  );
}
