import type { Db } from "../../db/client";
import { purgeExpiredSessions } from "../auth/session";
import { purgeExpiredCaptchas } from "../services/auth/captcha";
import { purgeOldLoginAttempts } from "../services/auth/login";

/** Cron: drop expired sessions, captchas and old login failures (wrangler.toml triggers). */
export async function housekeeping(db: Db, cron: string, scheduledTime: number) {
  const now = () => scheduledTime;
  await db.batch([
    purgeExpiredSessions(db, scheduledTime),
    purgeExpiredCaptchas({ db, now }),
    purgeOldLoginAttempts({ db, now }),
  ]);
  console.log(`housekeeping (${cron}) done`);
}
