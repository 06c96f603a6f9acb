package storage

import (
	"context"
	"database/sql"
	"fmt"
)

// Pipelined transactions: a transaction whose statements do not depend on
// each other's results in Go (each one's conditions are in its SQL) is
// sent as a list of steps. On PostgreSQL the dialect sends BEGIN, the
// steps and COMMIT together, in one round trip instead of one per
// statement (a reminder's read, claim and recording were 14 of its 17
// round trips, and round trips were most of a 1,000-reminder pass's time:
// issue 23). SQLite runs the same statements one after the other in an
// ordinary transaction (a statement there is a function call, not a
// round trip).

// step is one statement of a pipelined transaction.
type step struct {
	query string // with ? placeholders, as everywhere in the package
	args  []any
	// rows, if set, reads the statement's rows (a query, or a statement
	// with RETURNING; it need not check their Err); without it the statement is executed and affected
	// (if set) receives the count of rows it changed.
	rows     func(rowReader) error
	affected *int64
	// fail makes the error returned for the statement's own failure
	// (with the context of what it was doing, and the store's error kinds).
	fail func(error) error
}

// rowReader is what database/sql's rows and pgx's rows both offer, so
// that a step reads its rows the same way on both backends. Values are
// scanned into Go types both drivers convert to alike: integers into
// integer types (not bool: pgx does not scan a smallint into a bool),
// text into strings.
type rowReader interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// pipelineFunc runs steps (already in the dialect's placeholders) in one
// transaction on db, a read-only snapshot if read, and commits it unless
// a step failed; it returns the first step's failure.
type pipelineFunc func(ctx context.Context, db *sql.DB, read bool, steps []step) error

// pipe runs steps in one transaction (see pipelineFunc): pipelined where
// the dialect can, else statement by statement in s.read or s.write. A
// statement's failure rolls the transaction back. What the transaction
// commits cannot depend on Go's look at a result: every condition is in
// the statements' SQL. Pipelined, the whole batch, COMMIT included, is
// sent before any result is read, so an error a step's rows function
// returns does not undo a write there (it does on SQLite): in a write, a
// rows function must not fail on what it reads.
func (s *sqlStore) pipe(ctx context.Context, read bool, steps []step) error {
	if s.d.pipeline != nil {
		bound := make([]step, len(steps))
		for i, st := range steps {
			st.query = s.d.q(st.query)
			bound[i] = st
		}
		db := s.writer
		if read {
			db = s.reader
		}
		return s.d.pipeline(ctx, db, read, bound)
	}
	run := func(tx conn) error {
		for _, st := range steps {
			if err := runStep(ctx, tx, st); err != nil {
				return err
			}
		}
		return nil
	}
	if read {
		return s.read(ctx, run)
	}
	return s.write(ctx, run)
}

// runStep runs one step on tx, statement by statement.
func runStep(ctx context.Context, tx conn, st step) error {
	if st.rows == nil {
		res, err := tx.ExecContext(ctx, st.query, st.args...)
		if err != nil {
			return st.failed(err)
		}
		if st.affected != nil {
			if *st.affected, err = res.RowsAffected(); err != nil {
				return st.failed(err)
			}
		}
		return nil
	}
	rows, err := tx.QueryContext(ctx, st.query, st.args...)
	if err != nil {
		return st.failed(err)
	}
	defer rows.Close()
	return st.read(rows)
}

// read runs st.rows on the statement's rows r: the statement's own
// failure, met while reading (rows.Err), is reported as such, before
// whatever st.rows made of the rows it saw.
func (st step) read(r rowReader) error {
	err := st.rows(r)
	if rerr := r.Err(); rerr != nil {
		return st.failed(rerr)
	}
	return err
}

// failed is the error for the statement's own failure err.
func (st step) failed(err error) error {
	if st.fail != nil {
		return st.fail(err)
	}
	return fmt.Errorf("storage: %w", err)
}
