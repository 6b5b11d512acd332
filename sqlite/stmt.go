package sqlite

import (
	"context"
	"database/sql"
	"strings"
)

// Prepared statements of the move path. Preparing a statement (parsing it and
// generating the code of the tables' CHECK constraints) costs about as much
// as running it, and every move runs the same few statements. Open prepares
// the statements registered with hot once on the write connection, the only
// connection that writes; a write transaction uses them by their query text
// (see Tx.stmt). The hot queries that only read (SELECT) are also prepared
// for the read-only pool, where database/sql prepares them once on each
// connection as it first uses them: the move path reads its game there
// before it queues for the writer (GameService.AppendMove). Other
// statements are prepared each time, as before.

// hotQueries lists the query texts registered with hot. Package
// initialisation fills it; it does not change afterwards.
var hotQueries []string

// hot registers query as a statement of the move path and returns it.
func hot(query string) string {
	hotQueries = append(hotQueries, query)
	return query
}

// prepareHot prepares the hot statements on the write connection; it must
// run before the first transaction, since preparing needs the connection a
// transaction holds.
func (db *DB) prepareHot(ctx context.Context) error {
	db.stmts = make(map[string]*sql.Stmt, len(hotQueries))
	for _, q := range hotQueries {
		st, err := db.write.PrepareContext(ctx, q)
		if err != nil {
			return err
		}
		db.stmts[q] = st
	}
	return nil
}

// prepareHotReads prepares the hot queries that only read on the read-only
// pool; it runs once db.read is open.
func (db *DB) prepareHotReads(ctx context.Context) error {
	db.readStmts = map[string]*sql.Stmt{}
	for _, q := range hotQueries {
		if !strings.HasPrefix(q, "SELECT ") {
			continue
		}
		st, err := db.read.PrepareContext(ctx, q)
		if err != nil {
			return err
		}
		db.readStmts[q] = st
	}
	return nil
}

// stmt returns the transaction's use of the prepared statement for query, or
// nil when query is not hot (or, on the read-only pool, not a hot read).
func (tx *Tx) stmt(ctx context.Context, query string) *sql.Stmt {
	stmts := tx.db.stmts
	if !tx.writable {
		stmts = tx.db.readStmts
	}
	st, ok := stmts[query]
	if !ok {
		return nil
	}
	if !tx.writable {
		return tx.Tx.StmtContext(ctx, st) // closed when tx ends
	}
	if use, ok := tx.prepared[query]; ok {
		return use
	}
	use := tx.Tx.StmtContext(ctx, st) // closed when tx ends
	if tx.prepared == nil {
		tx.prepared = make(map[string]*sql.Stmt, len(stmts))
	}
	tx.prepared[query] = use
	return use
}

// ExecContext runs a statement of the transaction like sql.Tx.ExecContext,
// with constraint violations translated by constraintError. Every write
// goes through it, so this is the one place where they are translated.
func (tx *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	var res sql.Result
	var err error
	if writesUsers(query) {
		tx.usersWritten = true
	}
	if st := tx.stmt(ctx, query); st != nil {
		res, err = st.ExecContext(ctx, args...)
	} else {
		res, err = tx.Tx.ExecContext(ctx, query, args...)
	}
	return res, constraintError(err)
}

// QueryContext runs a query of the transaction like sql.Tx.QueryContext.
func (tx *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := tx.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return tx.Tx.QueryContext(ctx, query, args...)
}

// QueryRowContext runs a query of the transaction like
// sql.Tx.QueryRowContext.
func (tx *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := tx.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return tx.Tx.QueryRowContext(ctx, query, args...)
}
