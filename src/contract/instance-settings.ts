import type { Static, TSchema } from "@sinclair/typebox";
import { SIGNUP_MODES } from "./operators.js";
import { Type } from "./typebox.js";

/**
 * Instance settings (admin page, `GET`/`PUT /api/admin/settings`): kept in the database and the
 * same on every instance at once. An environment variable that sets one wins: the setting is then
 * shown with its variable and cannot be changed here.
 */

export const SETTING_SOURCES = ["environment", "admin", "default"] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/** Entries of the private-network allow list: host names, IP addresses or CIDR networks. */
export const PRIVATE_NETWORKS_MAX = 100;
export const PRIVATE_NETWORK_ENTRY_MAX = 253;

export const SignupModeSchema = Type.Union(
  SIGNUP_MODES.map((m) => Type.Literal(m)),
  {
    description:
      "`invite`: after the first account, only through an admin's invite link; `open`: anyone; `closed`: nobody signs up (admins create accounts; single sign-on may with OIDC_AUTO_SIGNUP)",
  },
);

const Source = Type.Union(
  SETTING_SOURCES.map((s) => Type.Literal(s)),
  {
    description:
      "`environment`: its variable is set and wins; `admin`: chosen on the admin page; `default`: nobody chose",
  },
);

const fieldOf = <T extends TSchema>(value: T, variable: string | null) =>
  Type.Object({
    value,
    source: Source,
    editable: Type.Boolean({ description: "false while the environment sets it: change it there" }),
    variable: Type.Union([Type.String(), Type.Null()], {
      description: variable
        ? `The environment variable that sets it (${variable}); it wins whenever it is set`
        : "No environment variable sets it",
    }),
  });

const Uuid = Type.String({ format: "uuid" });
const PrivateNetworkEntry = Type.String({
  minLength: 1,
  maxLength: PRIVATE_NETWORK_ENTRY_MAX,
  description: "A host name (`nas.lan`), an IP address (`10.0.0.7`) or a CIDR network (`192.168.1.0/24`)",
});

export const InstanceSettingsSchema = Type.Object(
  {
    signupMode: fieldOf(SignupModeSchema, "SIGNUP_MODE"),
    privateNetworks: fieldOf(
      Type.Array(Type.String(), {
        description:
          "Private, loopback or link-local hosts and networks user-given URLs may reach (feeds, icons, Status checks, push endpoints)",
      }),
      "FETCH_ALLOW_PRIVATE",
    ),
    starterDashboard: Type.Object({
      ...fieldOf(Type.Union([Uuid, Type.Null()]), null).properties,
      value: Type.Union([Uuid, Type.Null()], {
        description: "The dashboard every new account gets a copy of; null: none (or it was deleted)",
      }),
      name: Type.Union([Type.String(), Type.Null()], { description: "That dashboard's name" }),
    }),
  },
  { $id: "InstanceSettings" },
);
export type InstanceSettings = Static<typeof InstanceSettingsSchema>;

export const UpdateInstanceSettingsBody = Type.Object(
  {
    signupMode: Type.Optional(SignupModeSchema),
    privateNetworks: Type.Optional(Type.Array(PrivateNetworkEntry, { maxItems: PRIVATE_NETWORKS_MAX })),
    starterDashboard: Type.Optional(
      Type.Union([Uuid, Type.Null()], {
        description: "A dashboard the admin can read, or null for none",
      }),
    ),
  },
  { description: "Only the settings sent change; each must not be set by the environment" },
);
export type UpdateInstanceSettings = Static<typeof UpdateInstanceSettingsBody>;
