/**
 * PATCH /api/{account}/uploads/{asset}: per-image visibility.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment } from "./_context.ts";
import { toAsset, type UploadedAsset } from "./upload.ts";
import { sendWrite } from "./_write.ts";

/** The body of {@linkcode Archive.setAssetPublic}, on the archive's shared state; documented there. */
export async function setAssetPublic(
  context: ArchiveContext,
  asset: string | { id: string },
  isPublic: boolean,
): Promise<UploadedAsset> {
  const { account } = requireTarget(context, "setAssetPublic", false);
  const id = typeof asset === "string" ? asset : asset.id;
  const response = await sendWrite(context, {
    method: "PATCH",
    path: `/api/${segment(account)}/uploads/${segment(id)}`,
    json: { is_public: isPublic },
  }, { action: `change the visibility of image ${id}`, account });
  return toAsset(response.json(), id);
}
