-- The event bus between instances (bus.go) sends its messages with NOTIFY,
-- whose payload must be shorter than 8000 bytes. A larger message is
-- written here in the transaction of its notification, which names the
-- row; every listening instance reads it from here. Rows are deleted some
-- time after they were written (Bus.PayloadTTL), when every live listener
-- has read them. UNLOGGED: the rows live for a minute and need neither the
-- write-ahead log nor to survive a crash of the server.
CREATE UNLOGGED TABLE bus_payloads (
    publisher  TEXT        NOT NULL,
    seq        BIGINT      NOT NULL,
    payload    BYTEA       NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (publisher, seq)
);
CREATE INDEX bus_payloads_created ON bus_payloads (created_at);

-- Quick-match seeks of every instance (seek.go): instances pair them with
-- SELECT ... FOR UPDATE SKIP LOCKED, so that each seek is paired once. The
-- instance whose socket asked refreshes seen while the socket is open; a
-- seek not seen for the instance timeout is dropped.
CREATE TABLE seeks (
    user_id    BIGINT      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    instance   TEXT        NOT NULL,
    board_size INTEGER     NOT NULL CHECK (board_size > 0),
    speed      TEXT        NOT NULL,
    rank       INTEGER     NOT NULL,
    since      TIMESTAMPTZ NOT NULL,
    seen       TIMESTAMPTZ NOT NULL
);
CREATE INDEX seeks_instance ON seeks (instance);
