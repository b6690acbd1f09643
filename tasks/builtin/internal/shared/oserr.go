package shared

import (
	"fmt"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// Strerror texts of the errors a module script reports (the C library's
// messages under LC_ALL=C, which _t_open_err and _t_stat_err print).
const (
	ENOENT = "No such file or directory"
	EACCES = "Permission denied"
	EISDIR = "Is a directory"
)

// linuxErrno maps the C library's strerror texts to Linux errno numbers,
// for the errors opening or stat'ing a path can give.
var linuxErrno = map[string]int{
	"Operation not permitted":               1,
	ENOENT:                                  2,
	"Input/output error":                    5,
	"No such device or address":             6,
	"Cannot allocate memory":                12,
	EACCES:                                  13,
	"Device or resource busy":               16,
	"File exists":                           17,
	"No such device":                        19,
	"Not a directory":                       20,
	EISDIR:                                  21,
	"Invalid argument":                      22,
	"Too many open files in system":         23,
	"Too many open files":                   24,
	"Text file busy":                        26,
	"File too large":                        27,
	"No space left on device":               28,
	"Read-only file system":                 30,
	"File name too long":                    36,
	"Too many levels of symbolic links":     40,
	"Value too large for defined data type": 75,
	"Operation not supported":               95,
	"Stale file handle":                     116,
	"Remote I/O error":                      121,
	"Disk quota exceeded":                   122,
}

// Errno is the Linux errno whose strerror text is s, 0 for a text it
// does not know.
func Errno(s string) int { return linuxErrno[s] }

// OSErrorBytes is OSError for a path Python handled as bytes:
// "[Errno 20] Not a directory: b'/a/b'".
func OSErrorBytes(s, path string) string {
	return fmt.Sprintf("[Errno %d] %s: %s", Errno(s), s, pyfmt.BytesRepr(path))
}

// OSError is Python's str() of an OSError with strerror s on path:
// "[Errno 20] Not a directory: '/a/b'".
func OSError(s, path string) string {
	return fmt.Sprintf("[Errno %d] %s: %s", Errno(s), s, PyRepr(path))
}
