// The live board's SDK bundle: scripts/activity-sdk bundles this file with esbuild into
// bot/activity/static/sdk.js (an IIFE), which the page loads before its own script.
import { DiscordSDK, DiscordSDKMock, patchUrlMappings } from "@discord/embedded-app-sdk";

window.DiscordSDK = DiscordSDK;
window.DiscordSDKMock = DiscordSDKMock;
window.patchUrlMappings = patchUrlMappings;
