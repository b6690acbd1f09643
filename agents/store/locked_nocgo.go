//go:build !cgo

package store

// locked is never true in a build without cgo: the SQLite driver needs
// cgo, and without it opening a ledger fails with the driver's error
// ("go-sqlite3 requires cgo to work"); the PostgreSQL ledger works.
func locked(error) bool { return false }
