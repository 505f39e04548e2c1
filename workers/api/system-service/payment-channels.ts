import { z } from "zod";
import { channelEnableInput } from "../../../domain/schemas/payments";
import { createChannel, deleteChannel, enableChannel, getChannel, listChannels, updateChannel } from "../../services/payments/channels";
import { resource } from "../resource";

/**
 * Payment channels (docs/rules/payments.md "Channels"). Create and update bodies are parsed by the
 * verb, which says "choose the type first" before anything else about a body without one.
 */
const paymentChannel = resource("System service: payment channels", "/system-service/payment-channel");
const channelBody = z.record(z.string(), z.unknown()).meta({ description: "A payment channel (see paymentChannelInput): type first, credentials write-only" });

export const routes = [
  paymentChannel.get("", "The operator's payment channels, credentials masked", listChannels),
  paymentChannel.create("Add a payment channel (disabled); one per type: 409 when its type exists", createChannel, channelBody),
  paymentChannel.detail("One payment channel, credentials masked", getChannel),
  paymentChannel.update("Change a disabled payment channel (409 while enabled)", updateChannel, channelBody),
  paymentChannel.remove("Remove a disabled payment channel that took no payment", deleteChannel),
  paymentChannel.put("/{id}/enable", "Enable or disable a payment channel", enableChannel, channelEnableInput),
];
