package net

import _ "embed"

// gitApplyFuncs are the steps of the git module that change the
// repository: clone, fetch, switch_version, the submodules, the archive
// and the diff, as ansible-core 2.14's functions of those names.
//
//go:embed git_apply_funcs.sh
var gitApplyFuncs string
