import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, describeError } from "../lib/api";
import { FormActions, TextField } from "../ui/fields";
import { QueryError, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { AvatarPicker } from "./AvatarPicker";
import { accountApi, accountKeys, type Profile } from "./account-api";
import { EmailForm } from "./EmailForm";
import { PasswordForm } from "./PasswordForm";
import { useApplyProfile } from "./profile-cache";

function NameForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const toasts = useToasts();
  const applyProfile = useApplyProfile();
  const [name, setName] = useState(profile.name);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (value: string) => api.auth.updateUser({ name: value }),
    onSuccess: (_result, value) => {
      applyProfile({ ...profile, name: value });
      toasts.show({ tone: "success", message: t("settings.profile.saved") });
    },
    onError: (e) => setError(describeError(e)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t("settings.profile.nameRequired"));
      return;
    }
    setError(null);
    save.mutate(name.trim());
  };
  return (
    <form className="profile-form" onSubmit={submit}>
      <TextField
        label={t("common.name")}
        error={error}
        value={name}
        maxLength={100}
        autoComplete="name"
        onChange={(value) => {
          setName(value);
          setError(null);
        }}
      />
      <FormActions
        start
        label={t("settings.profile.save")}
        busyLabel={t("common.saving")}
        busy={save.isPending}
        disabled={name.trim() === profile.name}
      />
    </form>
  );
}

/** Settings › Profile: picture, name, the email address signed in with, and the password. */
export function ProfileTab() {
  const { t } = useTranslation();
  const profile = useQuery({ queryKey: accountKeys.profile, queryFn: accountApi.profile });
  if (profile.isPending)
    return (
      <div className="settings-section">
        <Skeleton height={72} width="100%" />
        <Skeleton height={64} width="100%" />
        <Skeleton height={64} width="100%" />
      </div>
    );
  if (profile.isError)
    return (
      <div className="settings-section">
        <QueryError query={profile} title={t("settings.profile.loadFailed")} />
      </div>
    );
  const current = profile.data;
  return (
    <div className="settings-section profile-tab">
      <AvatarPicker profile={current} />
      <NameForm profile={current} />
      <h3 className="section-title">{t("settings.profile.email.title")}</h3>
      <EmailForm profile={current} />
      <h3 className="section-title">{t("settings.profile.password.title")}</h3>
      <PasswordForm hasPassword={current.hasPassword} />
    </div>
  );
}
