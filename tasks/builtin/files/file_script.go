package files

import _ "embed"

// fileScript brings one path to the asked state in one round trip. Its
// inputs are shell variables set by the module (all quoted): path, state
// ("" for the current one), src, mode, owner, group, recurse, force,
// follow, atime and mtime ("", "now", "preserve" or a touch -t stamp),
// and _t_check. It prints key=value lines: prev (the state found), state
// (the one aimed at), verdict (done, or failed with msg), the attribute
// changes of _t_attrs, changed, then the _t_info of the result and, for
// links, target (readlink).
//
//go:embed file.sh
var fileScript string
