import type { ProblemError } from "../http/errors.js";

/** Node's and OpenSSL's codes for why a connection failed, in the words a Test button shows. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: "nothing is listening at that address and port (is the service running?)",
  ENOTFOUND: "the host name does not resolve (check the spelling, or use an IP address)",
  EAI_AGAIN: "the host name could not be resolved right now",
  EHOSTUNREACH: "the host cannot be reached from the server",
  ENETUNREACH: "the network cannot be reached from the server",
  ECONNRESET: "the connection was reset (is it https on an http port, or the other way round?)",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out (a firewall, or the wrong address)",
  UND_ERR_SOCKET: "the connection closed before an answer",
  DEPTH_ZERO_SELF_SIGNED_CERT:
    "TLS: the service's certificate is self-signed; add its CA certificate to the integration",
  SELF_SIGNED_CERT_IN_CHAIN:
    "TLS: the certificate chain ends in a CA the server does not trust; add that CA certificate",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    "TLS: the certificate is not signed by a CA the server trusts; add that CA certificate",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    "TLS: the certificate's issuer is not one the server trusts; add that CA certificate",
  CERT_HAS_EXPIRED: "TLS: the service's certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the certificate is for another host name than this address",
  ERR_SSL_WRONG_VERSION_NUMBER: "TLS: this port does not speak https (try http://)",
  EPROTO: "TLS: the handshake failed (is it http on an https address?)",
  ENOENT: "there is no socket at that path (is it mounted into the container?)",
  EACCES: "the server may not open that socket (its user needs the socket's group, or use a socket proxy)",
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    "TLS: the service asks for a client certificate; add tlsCertificate and tlsKey",
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: "TLS: the service refused the client certificate",
};

/**
 * What a failed call means, for a person: the upstream layer's detail ("Could not reach NAS for a
 * test request: ECONNREFUSED") with the code said in words.
 */
export function describeFailure(error: ProblemError): string {
  const detail = error.detail ?? error.message;
  const code = /: ([A-Z][A-Z0-9_]+)$/.exec(detail)?.[1];
  const reason = code ? REASONS[code] : undefined;
  return reason ? `${detail.slice(0, detail.length - code!.length)}${reason}` : detail;
}
