package shared

import (
	"io"
	"strings"
)

// NilReader turns a nil *strings.Reader into a nil io.Reader.
func NilReader(r *strings.Reader) io.Reader {
	if r == nil {
		return nil
	}
	return r
}
