import { useMutation } from "@tanstack/react-query";
import { type ChangeEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AVATAR_PX } from "../../contract/account-rules";
import { UserAvatar } from "../app/UserAvatar";
import { describeError } from "../lib/api";
import { FormError } from "../ui/fields";
import { useToasts } from "../ui/Toasts";
import { accountApi, type Profile } from "./account-api";
import { AvatarError, avatarFromFile } from "./avatar-image";
import { useApplyProfile } from "./profile-cache";

/**
 * Settings › Profile › Picture: a file the browser crops to its centred square and shrinks to
 * AVATAR_PX before sending, so the server only ever keeps a small picture; or none (initials).
 */
export function AvatarPicker({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const toasts = useToasts();
  const applyProfile = useApplyProfile();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);

  const saved = (message: string) => (next: Profile) => {
    applyProfile(next);
    setError(null);
    toasts.show({ tone: "success", message });
  };
  const upload = useMutation({
    mutationFn: async (file: File) => accountApi.setAvatar(await avatarFromFile(file)),
    onSuccess: saved(t("settings.profile.avatar.saved")),
    onError: (e) =>
      setError(
        e instanceof AvatarError
          ? e.reason === "tooLarge"
            ? t("settings.profile.avatar.tooLarge")
            : t("settings.profile.avatar.unreadable")
          : t("settings.profile.avatar.failed", { reason: describeError(e) }),
      ),
  });
  const remove = useMutation({
    mutationFn: accountApi.removeAvatar,
    onSuccess: saved(t("settings.profile.avatar.removed")),
    onError: (e) => setError(t("settings.profile.avatar.failed", { reason: describeError(e) })),
  });
  const busy = upload.isPending || remove.isPending;

  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared, so choosing the same file again is a change too.
    event.target.value = "";
    if (file) upload.mutate(file);
  };

  return (
    <div className="avatar-picker">
      <UserAvatar name={profile.name || profile.email} image={profile.image} className="avatar-large" />
      <div className="avatar-picker-body">
        <div className="avatar-picker-actions">
          <button
            type="button"
            className="button small"
            disabled={busy}
            onClick={() => input.current?.click()}
          >
            {upload.isPending
              ? t("settings.profile.avatar.uploading")
              : profile.image
                ? t("settings.profile.avatar.replace")
                : t("settings.profile.avatar.upload")}
          </button>
          {profile.image && (
            <button
              type="button"
              className="button ghost small"
              disabled={busy}
              onClick={() => remove.mutate()}
            >
              {t("settings.profile.avatar.remove")}
            </button>
          )}
        </div>
        <p className="field-hint">{t("settings.profile.avatar.hint", { size: AVATAR_PX })}</p>
        <FormError message={error} />
      </div>
      <input
        ref={input}
        type="file"
        accept="image/*"
        hidden
        aria-label={t("settings.profile.avatar.upload")}
        onChange={chosen}
      />
    </div>
  );
}
