-- The token buckets of the rate limits that the instances on one database
-- share (issue 20, tengen.RateLimiter): one row per limited key (a client
-- address's logins, an account's failed logins, a user's chat messages).
-- A row whose bucket is full again (full_by) is the same as no row, and
-- is deleted from time to time.

CREATE TABLE rate_buckets (
	key     TEXT PRIMARY KEY,
	tokens  DOUBLE PRECISION NOT NULL,
	-- at is when tokens was counted.
	at      TIMESTAMPTZ NOT NULL,
	-- taken tells whether the last Take found a token.
	taken   BOOLEAN NOT NULL,
	-- full_by: by then the bucket is full again, whatever its size.
	full_by TIMESTAMPTZ NOT NULL
);

CREATE INDEX rate_buckets_full_by ON rate_buckets (full_by);
