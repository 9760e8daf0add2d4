/**
 * Zulip's Camo URLs (zerver/lib/camo.py): `{CAMO_URI}{hex HMAC-SHA1 of the URL under CAMO_KEY}/{hex
 * of the URL}`, the scheme camo and go-camo check before they fetch the image. The proxy, not the
 * reader's browser, then contacts the image's host (issue 16, F17).
 */
import { createHmac } from "node:crypto";

export interface CamoSettings {
  url: string;
  key: string;
}

export function camoUrl(camo: CamoSettings, url: string): string {
  const digest = createHmac("sha1", camo.key).update(url, "utf8").digest("hex");
  return `${camo.url}${digest}/${Buffer.from(url, "utf8").toString("hex")}`;
}
