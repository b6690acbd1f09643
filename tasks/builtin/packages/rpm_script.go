package packages

import _ "embed"

// rpmScript is dnf's and yum's check-and-apply, one round trip, with the
// tool's command line (no python on the host), after rpmPre and
// rpmFuncs. Inputs (quoted by the module): tool (dnf or yum), names (one
// spec per line: a name, a name-version, or a local .rpm path), state
// (present, latest or absent), opts (options for every tool call:
// repositories, signatures, configuration, excludes, plugins,
// installroot...; one per line), secopts (--security, --bugfix: for the
// queries, installs and upgrades), iopts (for installs and upgrades:
// --allowerasing, --downloadonly, best), update (non-empty: makecache
// first), autoremove, downgrade (allow_downgrade), updateonly, dl
// (download_only), visible (non-empty: a package dnf does not see, being
// excluded, counts as not installed), _t_check, deps (non-empty: after
// the transaction, print req=<name>\t<capability> and
// prov=<name>\t<capability> for every package it changed, from the rpm
// database before for a removed one and after for an added one, when it
// changed more than one package).
//
// It prints key=value lines: warning=<text>, file=<path> for each local
// .rpm to install (Ansible reports them whatever happens), notinst=<spec>
// for each package update_only leaves alone, failure=<text> for each
// package that cannot be installed; then verdict=noconf (conf_file cannot
// be read), verdict=cache (update_cache without names), verdict=nothing,
// verdict=check (with installed=/removed= lines naming what would change)
// or verdict=ran with rc and installed=/removed= lines: every package the
// transaction added or took away (dependencies and the old version of an
// upgrade too, as dnf's transaction sets), by comparing the rpm database
// before and after (with dl=1, from the transactions dnf printed); then
// after "--output--" the tool's stdout and stderr.
//
//go:embed rpm.sh
var rpmScript string

// rpmPre starts rpmScript and rpmList: the tools, conf_file, yum's lock
// (lockwait: lock_timeout for yum 3, else empty), and the release
// version's warning (relver: non-empty when releasever is given; root:
// installroot when not /).
//
//go:embed rpm_pre.sh
var rpmPre string

// rpmFuncs are rpmScript's helpers: version-release parsing and
// comparison, the failure of a package the repositories do not offer,
// and dnf's transaction tables.
//
//go:embed rpm_funcs.sh
var rpmFuncs string

// rpmList is list's script, after rpmPre (listcmd: list's value):
// verdict=list and one pkg= or repo= line per result.
//
//go:embed rpm_list.sh
var rpmList string
