import { AVATAR_MAX_CHARS, AVATAR_PX } from "../../contract/account-rules";

/** Pictures larger than this are refused before decoding: nobody's portrait needs more. */
export const AVATAR_FILE_MAX_BYTES = 20 * 1024 * 1024;

/** The centred square of a `width` × `height` picture: what is kept when it is cropped. */
export function centredSquare(width: number, height: number) {
  const size = Math.min(width, height);
  return { x: (width - size) / 2, y: (height - size) / 2, size };
}

export type AvatarFailure = "tooLarge" | "unreadable";

export class AvatarError extends Error {
  constructor(readonly reason: AvatarFailure) {
    super(reason);
    this.name = "AvatarError";
  }
}

/**
 * The encodings tried in turn: WebP is smallest; a browser that cannot write it (Safari) answers
 * PNG instead, so JPEG follows, on white since it has no transparency, less finely the second time.
 */
const ENCODINGS: [type: string, quality: number][] = [
  ["image/webp", 0.85],
  ["image/jpeg", 0.85],
  ["image/jpeg", 0.6],
];

/**
 * A picture file as the account's avatar: cropped to its centred square, scaled to AVATAR_PX and
 * encoded as a data: URL small enough for the server. Decoded with createImageBitmap, which
 * the page's Content-Security-Policy allows (an <img> of a blob: URL it would refuse).
 */
export async function avatarFromFile(file: Blob): Promise<string> {
  if (file.size > AVATAR_FILE_MAX_BYTES) throw new AvatarError("tooLarge");
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new AvatarError("unreadable");
  }
  const canvas = document.createElement("canvas");
  canvas.width = AVATAR_PX;
  canvas.height = AVATAR_PX;
  const context = canvas.getContext("2d");
  if (!context) throw new AvatarError("unreadable");
  const { x, y, size } = centredSquare(bitmap.width, bitmap.height);
  context.imageSmoothingQuality = "high";
  for (const [type, quality] of ENCODINGS) {
    context.clearRect(0, 0, AVATAR_PX, AVATAR_PX);
    if (type === "image/jpeg") {
      context.fillStyle = "#fff";
      context.fillRect(0, 0, AVATAR_PX, AVATAR_PX);
    }
    context.drawImage(bitmap, x, y, size, size, 0, 0, AVATAR_PX, AVATAR_PX);
    const url = canvas.toDataURL(type, quality);
    if (url.startsWith(`data:${type};`) && url.length <= AVATAR_MAX_CHARS) {
      bitmap.close();
      return url;
    }
  }
  bitmap.close();
  throw new AvatarError("tooLarge");
}
