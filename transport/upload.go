package transport

import (
	"fmt"
	"time"
)

// UploadPrefix starts the name of every temporary file a Put writes
// beside its destination before renaming it into place. A connection lost
// mid-upload can leave one behind; a later Put into the same directory
// removes it (see SweepUploads, and the SSH transport's Put).
const UploadPrefix = ".tender-upload-"

// StaleUploadAge is how long an upload file must have been left unchanged
// before a Put that cannot tell its writer removes it: an upload being
// written changes with every write, and the SSH transport declares a
// connection silent this long dead (its default keepalive bound).
const StaleUploadAge = time.Minute

// SweepUploads is a sh command that removes the upload files in the
// directory the shell expression dir names that have not changed for
// StaleUploadAge, for Puts made by scripts. It never fails: a find without
// -mmin leaves them.
func SweepUploads(dir string) string {
	return fmt.Sprintf("find %s/. ! -name . -prune -name '%s*' -type f -mmin +%d -exec rm -f {} + 2>/dev/null || :",
		dir, UploadPrefix, int(StaleUploadAge/time.Minute))
}
