// A self-signed certificate for 127.0.0.1, valid until 2126, and its key: an HTTPS test server that no client trusts.
// Made with: openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 36500 -subj /CN=127.0.0.1
//   -addext subjectAltName=IP:127.0.0.1. A test key, used for nothing else.
export const SELF_SIGNED_CERT = `-----BEGIN CERTIFICATE-----
MIIBkDCCATagAwIBAgIUCa2MU90cpgK1Jrhy+GWhNe4iaRkwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyNzA5NDY0NFoYDzIxMjYxMTAz
MDk0NjQ0WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATefFnw5dcoGQJYDONy/HbgERib4tIKeA8WpfEwApdNGe23LuPilDc4
+NS/4SZ8//Ps2uQBWtOtUIueOrXXbqddo2QwYjAdBgNVHQ4EFgQUeSO1C8yao6VW
cE7PAsH/ByAsTW8wHwYDVR0jBBgwFoAUeSO1C8yao6VWcE7PAsH/ByAsTW8wDwYD
VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0gAMEUC
IAfnQ11TOD0ecr5nt9y5eY4iBrpMRhEYgYePw1nhvrBxAiEA9+p2zSjO70UgntfP
pvfXPqZvhztpqZ4okmsyNcmVkRQ=
-----END CERTIFICATE-----`;

export const SELF_SIGNED_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgUwBEHJw8oPQCASMe
z6ZKbNdthcc6V67jDE08SdnPoJGhRANCAATefFnw5dcoGQJYDONy/HbgERib4tIK
eA8WpfEwApdNGe23LuPilDc4+NS/4SZ8//Ps2uQBWtOtUIueOrXXbqdd
-----END PRIVATE KEY-----`;
