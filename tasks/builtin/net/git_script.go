package net

import _ "embed"

// gitFuncs are the steps of the git module's script, each the function
// of ansible-core 2.14's git module of the same name, running the same
// git commands (see gitScript for the inputs). A step that fails ends
// the script with _v_fail or _v_chk, with what ansible-core's reports.
//
// Where the repository's URL holds a password ($secret), neither git's
// command lines nor the URLs git hands its remote helpers show it: git
// is given the alias $url on its command lines and the URL without the
// password ($stripped) by configuration in its environment (for the
// alias and for the URL as the repository's configuration holds it),
// and asks for the password a credential helper that reads it from the
// environment (_g_secret). _g_fixurl writes the URL as given into the
// repository's configuration where git wrote the alias, as ansible-core's
// git leaves it.
//
//go:embed git_funcs.sh
var gitFuncs string

// gitScript is the git module's main, as ansible-core 2.14's: its inputs
// are shell variables set by the module (gitVars) and, for what may hold
// a password, TENDER_GIT_REPO (the repo parameter), TENDER_GIT_URL_CFG
// (it quoted for git's configuration) and TENDER_GIT_PASSWORD in the
// environment; its steps
// gitFuncs and gitApplyFuncs. It prints what _v_result prints (changed=,
// blobs before and after, rurl=, subm=, blobs rmsg, gdb and gdn), warning
// blobs and a diff blob, then done=1; or a failure (_v_fail, _v_chk,
// fail= from _t_need, noexe= from _v_in).
//
// r_before and r_after hold "" (not in the result), "n" (null) or "="
// and the commit.
//
//go:embed git.sh
var gitScript string
