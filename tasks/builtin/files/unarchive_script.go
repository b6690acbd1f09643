package files

import (
	_ "embed"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// unarchiveScript unpacks an archive on the host, in one round trip, as
// Ansible's unarchive: it picks the handler (unzip for zip files, GNU tar
// with -z, none, -j or -J), decides whether dest already holds the
// archive (tar --diff, read as Ansible reads it; for zip, the members
// unpacked beside dest and compared by content and mode), unpacks when
// not, and sets mode, owner and group on every member and top folder.
//
// Inputs: src, dest, uploaded (non-empty: src is our upload, removed at
// the end), excludes, includes, opts (extra_opts), one per line;
// keep_newer, mode, owner, group, _t_check.
//
// It prints key=value lines: handler, cmd (one per word, repeated),
// rc, then verdict=failed with msg, verdict=gtarcheck (check mode with
// tar: Ansible skips), or verdict=done with changed, extracted, outlen
// and errlen and the _t_info of dest, then "--output--", the command's
// stdout and stderr, and the archive's members, one per line.
var unarchiveScript = shared.AttrFuncs + shared.ShFuncs + unarchiveScriptBody

//go:embed unarchive.sh
var unarchiveScriptBody string
