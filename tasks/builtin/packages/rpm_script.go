package packages

import _ "embed"

// rpmScript is dnf's and yum's check-and-apply, one round trip, with the
// tool's command line (no python on the host). Inputs (quoted by the
// module): tool (dnf or yum), names (one spec per line: a name, a
// name-version, or a local .rpm path), state (present, latest or absent),
// opts (options for every tool call: --enablerepo,
// --disablerepo, --nogpgcheck; one per line), update (non-empty: makecache first),
// autoremove, _t_check, deps (non-empty: after the transaction, print
// req=<name>\t<capability> and prov=<name>\t<capability> for every package
// it changed, from the rpm database before for a removed one and after for
// an added one, when it changed more than one package).
//
// It prints key=value lines: file=<path> for each local .rpm to install
// (Ansible reports them whatever happens), failure=<text> for each package
// that cannot be installed; then verdict=cache (update_cache without
// names), verdict=nothing, verdict=check (with installed=/removed= lines
// naming what would change) or verdict=ran with rc and installed=/removed=
// lines: every package the transaction added or took away (dependencies
// and the old version of an upgrade too, as dnf's transaction sets), by
// comparing the rpm database before and after; then after "--output--"
// the tool's stdout and stderr.
//
//go:embed rpm.sh
var rpmScript string
