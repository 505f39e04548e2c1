import type { Db } from "../../db/client";
import { purgeExpiredSessions } from "../auth/session";
import { purgeExpiredCaptchas } from "../services/auth/captcha";
import { purgeOldLoginAttempts } from "../services/auth/login";
import { markSilentTransactions } from "../services/ocpp/charger-records";

/** Transactions of chargers silent this long are marked ABNORMAL (issue #3). */
export const SILENT_TRANSACTION_MS = 6 * 60 * 60 * 1000;

/**
 * Cron: drop expired sessions, captchas and old login failures; mark the transactions of
 * long-silent chargers ABNORMAL (wrangler.toml triggers).
 */
export async function housekeeping(db: Db, cron: string, scheduledTime: number) {
  const now = () => scheduledTime;
  await db.batch([
    purgeExpiredSessions(db, scheduledTime),
    purgeExpiredCaptchas({ db, now }),
    purgeOldLoginAttempts({ db, now }),
  ]);
  await markSilentTransactions(db, new Date(scheduledTime - SILENT_TRANSACTION_MS));
  console.log(`housekeeping (${cron}) done`);
}
