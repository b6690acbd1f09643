package net

import (
	_ "embed"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// getURLProbe looks at get_url's dest before anything is fetched. Inputs:
// dest, algo and sum (the checksum asked for, "" for none), force, mode,
// owner, group, _t_check. It prints isdir=1 or exists=1 with sha1, digest
// (of algo) and mtime; when the file is there, force is off and its
// digest is the one asked for, it fixes the attributes and prints
// verdict=exists with changed; otherwise verdict=fetch. Then the _t_info
// of dest.
var getURLProbe = shared.AttrFuncs + shared.ShFuncs + getURLProbeBody

//go:embed get_url_probe.sh
var getURLProbeBody string

// getURLPlace puts a downloaded file in place. Inputs: dest, tmp (the
// uploaded file beside dest, "" when the content is known to be equal),
// want (its sha1), algo, sum, backup, mode, owner, group. It prints
// checksum_dest (when dest existed), backup_file, verdict=badsum with
// digest (the file did not match the checksum asked for and was removed)
// or verdict=done with changed, md5sum and the _t_info of dest.
var getURLPlace = shared.AttrFuncs + shared.ShFuncs + shared.PrepareFunc + getURLPlaceBody

//go:embed get_url_place.sh
var getURLPlaceBody string
