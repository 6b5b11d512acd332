-- The players page (issue 16): searching names by prefix. name_key is the
-- name in ASCII lower case (users' unique key); its unique index follows the
-- database's collation, which a LIKE 'prefix%' cannot use unless the
-- collation is C, so this index compares bytes.
CREATE INDEX users_name_key_prefix ON users (name_key text_pattern_ops);
