import { badRequest } from "../../server/http/errors.js";

/**
 * Proxmox VE's API token ID, `USER@REALM!TOKENID` (pve-access-control's `pve-tokenid` format: a
 * user id, then `!` and the token's name, which starts with a letter).
 */
const TOKEN_ID = /^[^\s:/!=]+@[A-Za-z][A-Za-z0-9._-]+![A-Za-z][A-Za-z0-9._-]+$/;

/**
 * The token ID as people paste it: trimmed, and without the `PVEAPIToken=` of a header copied
 * from a curl line.
 */
export function tokenIdOf(typed: string | undefined): string {
  return (typed ?? "").trim().replace(/^PVEAPIToken=/i, "");
}

export function isTokenId(tokenId: string): boolean {
  return tokenId.length <= 256 && TOKEN_ID.test(tokenId);
}

/**
 * The header Proxmox VE reads an API token from: `PVEAPIToken=USER@REALM!TOKENID=SECRET`. A token
 * ID Proxmox cannot have is refused here, before anything is sent: the service would only answer
 * 401 after its three-second delay for failed logins, and say no more than "invalid token".
 */
export function tokenHeader(secrets: Readonly<Record<string, string>>): string {
  const tokenId = tokenIdOf(secrets.tokenId);
  if (!isTokenId(tokenId))
    throw badRequest(
      "The API token ID is not one Proxmox VE can have: it looks like monitor@pve!tessera (USER@REALM!TOKENID)",
      [{ path: "/secrets/tokenId", message: "must look like USER@REALM!TOKENID" }],
    );
  return `PVEAPIToken=${tokenId}=${(secrets.secret ?? "").trim()}`;
}
