//go:build cgo

package store

import (
	"errors"

	"github.com/mattn/go-sqlite3"
)

// locked reports whether err is SQLite's "database is locked" (or a
// table's lock).
func locked(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}
