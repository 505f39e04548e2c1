import { firmwareWaveMessage } from "../../domain/schemas/operations";
import { reportError } from "../http/report-error";
import { tenantHubName } from "../live/events";
import { systemCtx } from "../services/context";
import { sendFirmwareWave } from "../services/firmware/firmware";

/**
 * The firmware queue's consumer: one message is one wave of a rollout. Its points get
 * UpdateFirmware side by side; once each has answered (or is known offline, or timed out), the
 * next wave is queued, so a rollout never has more than one wave of chargers fetching at once
 * (docs/rules/operations.md "Firmware"). Each point's outcome reaches the operator's live view.
 */
export async function consumeFirmware(batch: MessageBatch<unknown>, env: Env) {
  for (const message of batch.messages) {
    const parsed = firmwareWaveMessage.safeParse(message.body);
    if (!parsed.success) {
      reportError("firmware", new Error("unreadable message"), { body: message.body });
      message.ack();
      continue;
    }
    const wave = parsed.data;
    try {
      const ctx = systemCtx(env, wave, "firmware rollout");
      const outcomes = await sendFirmwareWave(ctx, wave);
      const hub = env.TENANT_HUB.getByName(tenantHubName(wave.operatorId));
      for (const o of outcomes) {
        await hub.publish({ type: "firmware", pointId: o.pointId, serialNumber: o.serialNumber, firmwareId: wave.firmwareId, status: o.delivery, at: Date.now() });
      }
      if (wave.rest.length) {
        await env.FIRMWARE.send({ ...wave, wave: wave.wave + 1, pointIds: wave.rest.slice(0, wave.waveSize), rest: wave.rest.slice(wave.waveSize) });
      }
      message.ack();
    } catch (error) {
      reportError("firmware", error, { firmwareId: wave.firmwareId, wave: wave.wave });
      message.retry();
    }
  }
}
