-- Session tokens are kept as their SHA-256 (hex) from now on (src/server/auth/hashed-sessions.ts):
-- the sessions that exist keep working, and the table holds no usable credential.
UPDATE "session" SET "token" = encode(sha256(convert_to("token", 'UTF8')), 'hex') WHERE "token" !~ '^[0-9a-f]{64}$';
