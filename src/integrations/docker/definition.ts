import { defineIntegrationKind } from "../kit.js";

/**
 * The Docker Engine API (Podman's compatible API too), best through a read-only socket proxy on
 * plain HTTP (`http://socket-proxy:2375`); an admin may name the daemon's Unix socket instead, or
 * its TLS port with the client certificate Docker's `--tlsverify` asks for.
 */
export const dockerKind = defineIntegrationKind({
  kind: "docker",
  label: "Docker",
  description:
    "Containers of a Docker or Podman engine: state, health, uptime, CPU and memory; apps found from container labels; editors may start, stop and restart them when actions are allowed.",
  urlPlaceholder: "http://socket-proxy:2375",
  secrets: [
    {
      name: "tlsCertificate",
      label: "TLS client certificate (PEM)",
      required: false,
      help: "Only for Docker's TLS port (https://host:2376, dockerd --tlsverify): the client certificate (cert.pem, made with extendedKeyUsage=clientAuth). Put the CA (ca.pem) in the CA certificate field. Leave empty for a socket proxy or a Unix socket.",
    },
    {
      name: "tlsKey",
      label: "TLS client key (PEM)",
      required: false,
      help: "The private key of that client certificate (key.pem). Anyone holding it controls the Docker daemon: prefer a read-only socket proxy.",
    },
  ],
  headerSecrets: false,
  unixSocket: true,
  clientCertificate: true,
});
